// Parameter types shared by the provider and host steps.
import { defineParameterType } from '@cucumber/cucumber';

// "B1", "H1 and S3.1-compare-families", "F5, D1 and S6.3-content-digest"
defineParameterType({
  name: 'ids',
  regexp: /[A-Z][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)*(?:(?:, | and )[A-Z][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)*)*/,
  transformer: (text: string) => text.split(/, | and /),
});
