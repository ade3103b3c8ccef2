import './shared/ui/theme.css';
import './shared/i18n/i18n.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startVersionCheck } from './app/version-check.ts';

// Spec section 4: the server's version decides whether this build may run; the page renders meanwhile.
startVersionCheck();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
