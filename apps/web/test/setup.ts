import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// The unit tests read the app as a Russian browser does (an English one preselects English).
Object.defineProperty(navigator, 'languages', { value: ['ru-RU', 'ru'], configurable: true });
Object.defineProperty(navigator, 'language', { value: 'ru-RU', configurable: true });

afterEach(() => cleanup());
