import type { Preview } from '@storybook/react-vite';
import '../src/ui/theme.css';

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true },
    // The breakpoints of spec 9, to check each layout.
    viewport: {
      options: {
        small: { name: 'Small (600)', styles: { width: '600px', height: '900px' } },
        medium: { name: 'Medium (1024)', styles: { width: '1024px', height: '768px' } },
        large: { name: 'Large (1440)', styles: { width: '1440px', height: '900px' } },
        extraLarge: { name: 'Extra large (1920)', styles: { width: '1920px', height: '1080px' } },
      },
    },
  },
};

export default preview;
