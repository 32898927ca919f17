import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

const settingsPath = '/_cms/api/settings';

const defaults = {
  siteTitle: 'Folio',
  tagline: '',
  postsPerPage: 10,
  siteUrl: '',
  timezone: 'UTC',
  defaultLocale: 'en',
  locales: ['en'],
  publicRead: false,
  seo: { titleSeparator: '–', defaultImage: null as string | null },
};

type Settings = typeof defaults;

const ok = expectSuccess as (response: ApiResponse) => Settings;

describe('reading settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns every key with its default on a fresh site', async () => {
    const response = await t.request('GET', settingsPath, { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: defaults });
  });

  it('is readable by any role holding content:read', async () => {
    for (const role of [10, 20, 30, 40, 50]) {
      const { token } = await t.userWithToken(role, ['content:read']);
      const response = await t.request('GET', settingsPath, { token });
      expect({ role, status: response.status, body: response.body }).toEqual({ role, status: 200, body: { success: true, data: defaults } });
    }
  });

  it('refuses a request without a token with 401', async () => {
    expectError(await t.request('GET', settingsPath), 401, 'UNAUTHORIZED');
    expectError(await t.request('POST', settingsPath, { body: { siteTitle: 'Anonymous' } }), 401, 'UNAUTHORIZED');
    expect(ok(await t.request('GET', settingsPath, { token: t.adminToken }))).toEqual(defaults);
  });

  it('refuses a malformed or unknown token with 401', async () => {
    for (const authorization of ['Bearer ', 'Basic YTpi', 'Bearer ec_pat_unknownunknownunknownunknownunknown']) {
      expectError(await t.request('GET', settingsPath, { headers: { authorization } }), 401, 'UNAUTHORIZED');
      expectError(await t.request('POST', settingsPath, { headers: { authorization }, body: { siteTitle: 'Nope' } }), 401, 'UNAUTHORIZED');
    }
    expect(ok(await t.request('GET', settingsPath, { token: t.adminToken }))).toEqual(defaults);
  });

  it('refuses a GET with a token holding only media:read with 403 naming content:read', async () => {
    for (const role of [10, 50]) {
      const { token } = await t.userWithToken(role, ['media:read']);
      const error = expectError(await t.request('GET', settingsPath, { token }), 403, 'FORBIDDEN');
      expect(error.details.requiredScope).toBe('content:read');
    }
  });
});

describe('updating settings: access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a POST from a token without admin with 403 naming admin, changing nothing', async () => {
    const holders = [
      await t.userWithToken(10, ['content:read']),
      await t.userWithToken(40, ['content:read', 'content:write', 'media:write', 'schema:read']),
      await t.userWithToken(50, ['content:read', 'content:write', 'schema:write']),
    ];
    for (const { token } of holders) {
      const error = expectError(await t.request('POST', settingsPath, { token, body: { siteTitle: 'Taken over', publicRead: true } }), 403, 'FORBIDDEN');
      expect(error.details.requiredScope).toBe('admin');
      // Access is checked before the body, so an invalid body still gets 403.
      const invalid = expectError(await t.request('POST', settingsPath, { token, body: { nope: 1 } }), 403, 'FORBIDDEN');
      expect(invalid.details.requiredScope).toBe('admin');
    }
    expect(ok(await t.request('GET', settingsPath, { token: t.adminToken }))).toEqual(defaults);
  });

  it('lets a content:read token see what an admin wrote', async () => {
    const { token } = await t.userWithToken(10, ['content:read']);
    ok(await t.request('POST', settingsPath, { token: t.adminToken, body: { siteTitle: 'Shared' } }));
    expect(ok(await t.request('GET', settingsPath, { token })).siteTitle).toBe('Shared');
  });

  it('stops accepting a POST from an admin once demoted', async () => {
    const b = await t.userWithToken(50, ['admin']);
    expect(ok(await t.request('POST', settingsPath, { token: b.token, body: { tagline: 'by B' } })).tagline).toBe('by B');
    expect((await t.request('PATCH', `/_cms/api/admin/users/${b.user.id}`, { token: t.adminToken, body: { role: 40 } })).status).toBe(200);
    const error = expectError(await t.request('POST', settingsPath, { token: b.token, body: { tagline: 'by demoted B' } }), 403, 'FORBIDDEN');
    expect(error.details.requiredScope).toBe('admin');
    expect(ok(await t.request('GET', settingsPath, { token: t.adminToken })).tagline).toBe('by B');
  });
});

describe('updating settings: values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Every test starts from the defaults: null resets each key.
    const reset = Object.fromEntries(Object.keys(defaults).map((key) => [key, null]));
    expect(ok(await t.request('POST', settingsPath, { token: t.adminToken, body: reset }))).toEqual(defaults);
  });

  const post = (body: unknown) => t.request('POST', settingsPath, { token: t.adminToken, body });
  const read = async () => ok(await t.request('GET', settingsPath, { token: t.adminToken }));

  const valid: [key: keyof Settings, value: unknown][] = [
    ['siteTitle', 'My Site'],
    ['siteTitle', ''],
    ['siteTitle', 'Ünïcødé ✓ 日本語'],
    ['tagline', 'Just another site'],
    ['postsPerPage', 1],
    ['postsPerPage', 25],
    ['postsPerPage', 100],
    ['siteUrl', 'https://example.com'],
    ['siteUrl', 'https://example.com/blog/'],
    ['siteUrl', 'http://localhost:3000'],
    ['siteUrl', ''],
    ['timezone', 'Europe/Paris'],
    ['timezone', 'America/New_York'],
    ['timezone', 'Asia/Kolkata'],
    ['timezone', 'UTC'],
    ['locales', ['en', 'fr', 'pt-BR']],
    ['locales', ['en', 'zh-Hant-TW', 'es-419']],
    ['publicRead', true],
    ['publicRead', false],
  ];

  for (const [key, value] of valid) {
    it(`accepts ${key} = ${JSON.stringify(value)} and keeps it`, async () => {
      const expected = { ...defaults, [key]: value };
      const response = await post({ [key]: value });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: expected });
      expect(await read()).toEqual(expected);
    });
  }

  it('accepts a defaultLocale that the locales contain', async () => {
    for (const [defaultLocale, locales] of [
      ['fr', ['en', 'fr']],
      ['pt-BR', ['pt-BR']],
      ['zh-Hant-TW', ['zh-Hant-TW', 'en']],
    ] as const) {
      const expected = { ...defaults, defaultLocale, locales: [...locales] };
      expect(ok(await post({ defaultLocale, locales }))).toEqual(expected);
      expect(await read()).toEqual(expected);
    }
  });

  const invalid: [key: keyof Settings, value: unknown][] = [
    ['siteTitle', 42],
    ['siteTitle', true],
    ['siteTitle', ['Folio']],
    ['tagline', false],
    ['tagline', { text: 'x' }],
    ['postsPerPage', 0],
    ['postsPerPage', 101],
    ['postsPerPage', -5],
    ['postsPerPage', 2.5],
    ['postsPerPage', '10'],
    ['postsPerPage', true],
    ['siteUrl', 'example.com'],
    ['siteUrl', 'not a url'],
    ['siteUrl', 'ftp://example.com'],
    ['siteUrl', 'javascript:alert(1)'],
    ['siteUrl', 'mailto:admin@example.com'],
    ['siteUrl', 7],
    ['timezone', 'Mars/Base'],
    ['timezone', 'Europe/Atlantis'],
    ['timezone', ''],
    ['timezone', 'Not a zone'],
    ['timezone', 1],
    ['defaultLocale', 'not a locale!'],
    ['defaultLocale', 'en_US'],
    ['defaultLocale', ''],
    ['defaultLocale', 'x'],
    ['defaultLocale', 5],
    ['locales', 'en'],
    ['locales', []],
    ['locales', ['en', 'en_US']],
    ['locales', ['en', '']],
    ['locales', ['en', 3]],
    ['locales', ['en', 'en']],
    ['publicRead', 'true'],
    ['publicRead', 1],
    ['publicRead', 'yes'],
  ];

  for (const [key, value] of invalid) {
    it(`refuses ${key} = ${JSON.stringify(value)} with 400 naming ${key}, writing nothing`, async () => {
      const paths = issuePaths(await post({ [key]: value }));
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) expect(path === key || path.startsWith(`${key}.`)).toBe(true);
      expect(await read()).toEqual(defaults);
    });
  }

  it('requires the locales to contain the default locale (400, path locales)', async () => {
    for (const body of [{ defaultLocale: 'fr' }, { locales: ['fr', 'de'] }, { defaultLocale: 'de', locales: ['en', 'fr'] }]) {
      const response = await post(body);
      expect({ body, paths: issuePaths(response) }).toEqual({ body, paths: ['locales'] });
    }
    expect(await read()).toEqual(defaults);
  });

  it('checks the default locale against the stored locales when only one of them is given', async () => {
    ok(await post({ defaultLocale: 'fr', locales: ['en', 'fr'] }));
    // Dropping fr from the locales while it is the default is refused.
    expect(issuePaths(await post({ locales: ['en'] }))).toEqual(['locales']);
    // Resetting locales to the default ['en'] would drop fr too.
    expect(issuePaths(await post({ locales: null }))).toEqual(['locales']);
    // Moving the default to another listed locale is fine.
    expect(ok(await post({ defaultLocale: 'en' }))).toEqual({ ...defaults, locales: ['en', 'fr'] });
    expect(await read()).toEqual({ ...defaults, locales: ['en', 'fr'] });
  });

  it('never lets two simultaneous updates together break the rule that the locales hold the default', async () => {
    for (let round = 0; round < 5; round++) {
      ok(await post({ defaultLocale: 'en', locales: ['en', 'fr'] }));
      // Each is fine alone; together they would leave the default fr outside the locales ['en'].
      const [moveDefault, shrinkLocales] = await Promise.all([post({ defaultLocale: 'fr' }), post({ locales: ['en'] })]);
      expect([moveDefault.status, shrinkLocales.status].sort()).toEqual([200, 400]);
      const settings = await read();
      expect(settings.locales).toContain(settings.defaultLocale);
    }
  });

  it('merges: keys not given keep their values', async () => {
    ok(await post({ siteTitle: 'First', postsPerPage: 20 }));
    const merged = ok(await post({ tagline: 'Second', publicRead: true }));
    const expected = { ...defaults, siteTitle: 'First', postsPerPage: 20, tagline: 'Second', publicRead: true };
    expect(merged).toEqual(expected);
    expect(await read()).toEqual(expected);
    expect(ok(await post({}))).toEqual(expected);
    expect(ok(await post({ siteTitle: 'Third' }))).toEqual({ ...expected, siteTitle: 'Third' });
    expect(await read()).toEqual({ ...expected, siteTitle: 'Third' });
  });

  it('resets a key to its default with null, leaving the others', async () => {
    const changed = {
      siteTitle: 'Changed',
      tagline: 'Changed tagline',
      postsPerPage: 42,
      siteUrl: 'https://changed.example',
      timezone: 'Europe/Paris',
      defaultLocale: 'fr',
      locales: ['fr', 'en'],
      publicRead: true,
      seo: { titleSeparator: '|', defaultImage: 'https://changed.example/card.png' },
    };
    expect(ok(await post(changed))).toEqual(changed);
    let expected: Settings = { ...changed };
    for (const key of ['siteTitle', 'tagline', 'postsPerPage', 'siteUrl', 'timezone', 'publicRead', 'seo'] as const) {
      expected = { ...expected, [key]: defaults[key] };
      expect({ key, settings: ok(await post({ [key]: null })) }).toEqual({ key, settings: expected });
      expect(await read()).toEqual(expected);
    }
    expected = { ...expected, defaultLocale: 'en' };
    expect(ok(await post({ defaultLocale: null }))).toEqual(expected);
    expect(ok(await post({ locales: null }))).toEqual(defaults);
    expect(await read()).toEqual(defaults);
  });

  it('treats null on a key already at its default as no change', async () => {
    expect(ok(await post({ siteTitle: null, publicRead: null }))).toEqual(defaults);
    expect(await read()).toEqual(defaults);
  });

  it('refuses unknown keys with 400 naming each, writing nothing', async () => {
    const error = expectError(await post({ siteTitle: 'Good', sitetitle: 'typo', theme: 'dark' }), 400, 'VALIDATION_ERROR');
    expect(error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['sitetitle', 'theme']);
    for (const issue of error.details.issues) expect(issue.message).toBe('Unknown key');
    expect(await read()).toEqual(defaults);
  });

  it('writes nothing when one key among good ones is bad', async () => {
    const good = { siteTitle: 'Would change', tagline: 'Would change too', publicRead: true, timezone: 'Europe/Paris' };
    for (const bad of [{ postsPerPage: 0 }, { siteUrl: 'ftp://x.example' }, { timezone: 'Mars/Base' }, { locales: ['de'] }, { extra: 1 }]) {
      const paths = issuePaths(await post({ ...good, ...bad }));
      expect(paths).toEqual(Object.keys(bad));
      expect(await read()).toEqual(defaults);
    }
  });

  it('names every bad key in one 400', async () => {
    const paths = issuePaths(await post({ postsPerPage: 0, timezone: 'Mars/Base', publicRead: 'no' }));
    expect(paths.sort()).toEqual(['postsPerPage', 'publicRead', 'timezone']);
    expect(await read()).toEqual(defaults);
  });

  it('refuses a body that is not an object', async () => {
    for (const body of [[], 'siteTitle', 5, null]) {
      expectError(await post(body), 400, 'VALIDATION_ERROR');
    }
    expect(await read()).toEqual(defaults);
  });

  it('keeps types on the wire: numbers as numbers, booleans as booleans, lists as lists', async () => {
    ok(await post({ postsPerPage: 7, publicRead: true, locales: ['en', 'de'] }));
    const settings = await read();
    expect(typeof settings.postsPerPage).toBe('number');
    expect(settings.postsPerPage).toBe(7);
    expect(settings.publicRead).toBe(true);
    expect(settings.locales).toEqual(['en', 'de']);
  });
});
