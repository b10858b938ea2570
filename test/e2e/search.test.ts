import { searchSuite } from './search-suite.js';

// Spaces ranked from their postings, as the server does by default.
searchSuite({});
