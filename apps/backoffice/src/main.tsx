import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { currentLanguage, LanguageProvider } from './i18n.tsx';
import './styles.css';

document.documentElement.lang = currentLanguage();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LanguageProvider>
      <App />
    </LanguageProvider>
  </StrictMode>,
);
