import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, paramsWithBody } from '../http/route.ts';
import { createTaxonomy, createTerm, deleteTaxonomy, deleteTerm, getEntryTerms, getTaxonomy, getTermTree, listTaxonomies, listTerms, reorderTerms, setEntryTerms, updateTaxonomy, updateTerm } from './operations.ts';
import {
  CreateTaxonomyBody,
  CreateTermBody,
  EntryTermsBody,
  EntryTermsParams,
  EntryTermsResponse,
  ListTermsQuery,
  ReorderTermsBody,
  TermTreeResponse,
  TaxonomyItemResponse,
  TaxonomyListResponse,
  TaxonomyParams,
  TermItemResponse,
  TermListResponse,
  TermParams,
  UpdateTaxonomyBody,
  UpdateTermBody,
} from './schemas.ts';

const tag = 'Taxonomies';
const entryTermsPath = '/content/:collection/:id/terms/:taxonomy';

export const taxonomyRoutes = [
  defineRoute({ method: 'get', path: '/taxonomies', tag, summary: 'Taxonomy definitions', operation: listTaxonomies, response: TaxonomyListResponse }),
  defineRoute({ method: 'post', path: '/taxonomies', tag, summary: 'Define a taxonomy', operation: createTaxonomy, body: CreateTaxonomyBody, status: 201, response: TaxonomyItemResponse }),
  defineRoute({ method: 'get', path: '/taxonomies/:name', tag, summary: 'Get a taxonomy definition', operation: getTaxonomy, params: TaxonomyParams, response: TaxonomyItemResponse }),
  defineRoute({
    method: 'patch',
    path: '/taxonomies/:name',
    tag,
    summary: 'Change labels or the collections a taxonomy applies to',
    operation: updateTaxonomy,
    params: TaxonomyParams,
    body: UpdateTaxonomyBody,
    response: TaxonomyItemResponse,
  }),
  defineRoute({ method: 'delete', path: '/taxonomies/:name', tag, summary: 'Delete a taxonomy, its terms and entries’ terms of it', operation: deleteTaxonomy, params: TaxonomyParams, response: DeletedResponse }),
  defineRoute({ method: 'get', path: '/taxonomies/:name/terms', tag, summary: 'Terms by slug, one page at a time', operation: listTerms, params: TaxonomyParams, query: ListTermsQuery, response: TermListResponse }),
  defineRoute({ method: 'get', path: '/taxonomies/:name/tree', tag, summary: 'Every term as a tree, siblings in order, with entry counts', operation: getTermTree, params: TaxonomyParams, response: TermTreeResponse }),
  defineRoute({
    method: 'post',
    path: '/taxonomies/:name/terms/reorder',
    tag,
    summary: 'Move terms: new parents and places, all or nothing; answers the tree',
    operation: reorderTerms,
    params: TaxonomyParams,
    body: ReorderTermsBody,
    input: ({ params, body }) => ({ ...params, ...body }),
    response: TermTreeResponse,
  }),
  defineRoute({ method: 'post', path: '/taxonomies/:name/terms', tag, summary: 'Create a term', operation: createTerm, params: TaxonomyParams, body: CreateTermBody, status: 201, response: TermItemResponse }),
  defineRoute({
    method: 'put',
    path: '/taxonomies/:name/terms/:slug',
    tag,
    summary: 'Change a term (slug, label, parent, description)',
    operation: updateTerm,
    params: TermParams,
    body: UpdateTermBody,
    input: paramsWithBody,
    response: TermItemResponse,
  }),
  defineRoute({ method: 'delete', path: '/taxonomies/:name/terms/:slug', tag, summary: 'Delete a term; its children move up to its parent', operation: deleteTerm, params: TermParams, response: DeletedResponse }),
  defineRoute({ method: 'get', path: entryTermsPath, tag, summary: "An entry's terms in a taxonomy", operation: getEntryTerms, params: EntryTermsParams, response: EntryTermsResponse }),
  defineRoute({ method: 'post', path: entryTermsPath, tag, summary: "Replace an entry's terms in a taxonomy", operation: setEntryTerms, params: EntryTermsParams, body: EntryTermsBody, response: EntryTermsResponse }),
];
