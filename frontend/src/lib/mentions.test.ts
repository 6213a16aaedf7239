import { describe, expect, it } from 'vitest';
import { findMentions, mentionsMember } from './mentions';

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

describe('findMentions', () => {
  it('finds every member mentioned, in order, the longest name first', () => {
    const text = '@mary and @Mary Ann, cc @bob.';
    expect(findMentions(text, ['bob', 'Mary', 'Mary Ann'])).toEqual([
      { start: 0, end: 5, username: 'Mary' },
      { start: 10, end: 19, username: 'Mary Ann' },
      { start: 24, end: 28, username: 'bob' },
    ]);
  });
  it('finds nothing for non-members or without names', () => {
    expect(findMentions('@carol hi', ['bob'])).toEqual([]);
    expect(findMentions('@bob hi', [])).toEqual([]);
  });
});
