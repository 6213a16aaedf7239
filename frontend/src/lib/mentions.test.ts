import { describe, expect, it } from 'vitest';
import { mentionsMember } from './mentions';

describe('mentionsMember', () => {
  it('finds @name anywhere, case-insensitively', () => {
    expect(mentionsMember('hi @Bob, look', 'bob')).toBe(true);
    expect(mentionsMember('@bob', 'Bob')).toBe(true);
  });
  it('needs the whole name: a longer name is someone else', () => {
    expect(mentionsMember('hi @bobby', 'bob')).toBe(false);
    expect(mentionsMember('hi @bo', 'bob')).toBe(false);
  });
  it('handles names with spaces', () => {
    expect(mentionsMember('thanks @Mary Ann!', 'mary ann')).toBe(true);
  });
  it('ignores e-mail addresses and plain names', () => {
    expect(mentionsMember('mail me at x@bob', 'bob')).toBe(false);
    expect(mentionsMember('bob said hi', 'bob')).toBe(false);
    expect(mentionsMember('@', '')).toBe(false);
  });
});
