/**
 * The file route patterns (paths.ts) against the paths API builds: the ingress and the test router send every file
 * route to messaging (FILE_ROUTE_PATTERN); the embedded gateway hands over the body of the upload alone
 * (UPLOAD_ROUTE_PATTERN), never of a download, a link or another route.
 */
import { describe, expect, it } from 'vitest';
import { API, FILE_ROUTE_PATTERN, UPLOAD_ROUTE_PATTERN } from '../src/http.ts';

describe('file route patterns', () => {
  const upload = API.uploadFile('room_1-A');
  const download = API.file('room_1-A', 'file1');
  const link = API.fileLink('room_1-A', 'file1');

  it('match every file route, and only those', () => {
    for (const path of [upload, `${upload}?x=1`, download, link]) expect(FILE_ROUTE_PATTERN.test(path)).toBe(true);
    for (const path of [API.join('room_1-A'), '/api/workspaces/room/filesystem', '/api/workspaces/a/b/files'])
      expect(FILE_ROUTE_PATTERN.test(path)).toBe(false);
  });

  it('take the upload alone as a handed-over body', () => {
    expect(UPLOAD_ROUTE_PATTERN.test(upload)).toBe(true);
    expect(UPLOAD_ROUTE_PATTERN.test(`${upload}?purpose=avatar`)).toBe(true);
    for (const path of [download, link, `${upload}/`, '/api/workspaces/room/filesystem'])
      expect(UPLOAD_ROUTE_PATTERN.test(path)).toBe(false);
  });
});
