import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, paramsWithBody } from '../http/route.ts';
import { createSection, deleteSection, getSection, listSections, updateSection } from './operations.ts';
import { CreateSectionBody, ListSectionsQuery, SectionItemResponse, SectionListResponse, SectionParams, UpdateSectionBody } from './schemas.ts';

const tag = 'Sections';

export const sectionRoutes = [
  defineRoute({
    method: 'get',
    path: '/sections',
    tag,
    summary: 'Sections by slug, one page at a time (source and text filters)',
    operation: listSections,
    query: ListSectionsQuery,
    response: SectionListResponse,
  }),
  defineRoute({ method: 'post', path: '/sections', tag, summary: 'Create a section', operation: createSection, body: CreateSectionBody, status: 201, response: SectionItemResponse }),
  defineRoute({ method: 'get', path: '/sections/:slug', tag, summary: 'Get a section', operation: getSection, params: SectionParams, response: SectionItemResponse }),
  defineRoute({
    method: 'put',
    path: '/sections/:slug',
    tag,
    summary: 'Change a section (slug, title, keywords, content, source)',
    operation: updateSection,
    params: SectionParams,
    body: UpdateSectionBody,
    input: paramsWithBody,
    response: SectionItemResponse,
  }),
  defineRoute({ method: 'delete', path: '/sections/:slug', tag, summary: 'Delete a section; widgets showing it read it as missing', operation: deleteSection, params: SectionParams, response: DeletedResponse }),
];
