// Loads the TypeScript step definitions through tsx (development runs only; compiled runs import dist/steps).
// It must come FIRST in cucumber's `import` list (notes/ecosystem.md §A3).
import { register } from 'tsx/esm/api';

register();
