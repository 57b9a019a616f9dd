//! Entry point: language first (so the first paint is in the right one), then the app.

import './styles.css';
import { App } from './app';
import { initI18n } from './i18n';

async function main(): Promise<void> {
  await initI18n();
  const root = document.getElementById('app');
  if (root) new App(root);
}

void main();
