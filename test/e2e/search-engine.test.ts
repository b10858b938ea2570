import { searchSuite } from './search-suite.js';

// Spaces ranked by the database's full-text engine, as organizations are (SQLite's default).
searchSuite({ QUIRE_SEARCH_POSTINGS_PAGES: 'off' });
