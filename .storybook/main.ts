import type { StorybookConfig } from '@storybook/react-vite';

// Stories mirror the source tree under stories/ (STYLE.md); Vite config comes from vite.config.ts.
const config: StorybookConfig = {
  framework: { name: '@storybook/react-vite', options: {} },
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: [],
  core: { disableTelemetry: true },
  staticDirs: ['../public'],
};

export default config;
