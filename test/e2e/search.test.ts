import { searchSuite } from './search-suite.js';

// Every space ranked from its postings (PostgreSQL's default does so from 2,000 pages).
searchSuite({ QUIRE_SEARCH_POSTINGS_PAGES: '0' });
