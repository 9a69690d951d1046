// Loads the TypeScript step definitions through tsx (development runs only; compiled runs import dist/steps).
// It must come FIRST in cucumber's `import` list (cucumber imports the list in order: the step files need tsx registered before them).
import { register } from 'tsx/esm/api';

register();
