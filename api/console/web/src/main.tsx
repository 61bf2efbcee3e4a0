import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import './console.css';
import { theme } from './theme';
import { App } from './App';

// The server's nonce for this page: Mantine's <style> elements are allowed by it and nothing else is.
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} getStyleNonce={() => nonce}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </MantineProvider>
  </StrictMode>,
);
