// Preloaded with `node --import` to make a child process report the Node.js version in
// FOLIO_TEST_FAKE_NODE_VERSION, so the refusal of an old Node.js can be tested on a current one.
const version = process.env.FOLIO_TEST_FAKE_NODE_VERSION;
Object.defineProperty(process, 'version', { value: version });
Object.defineProperty(process.versions, 'node', { value: version.slice(1) });
