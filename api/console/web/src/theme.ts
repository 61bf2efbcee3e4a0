import { createTheme, InputWrapper } from '@mantine/core';

// Shade 8 of blue carries white text at WCAG AA contrast (Mantine's default shade 6 does not).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  // A field's description in gray 7, not Mantine's dimmed gray 6, which is below AA contrast on white.
  components: { InputWrapper: InputWrapper.extend({ defaultProps: { descriptionProps: { c: 'gray.7' } } }) },
});
