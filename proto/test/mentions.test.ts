/** Which members a message mentions (docs/product/messages.md M26): the rule the browser and the server share. */
import { describe, expect, it } from 'vitest';
import { mentionedUsernames, mentionsMember, mentionText } from '../src/index.ts';

const NAMES = ['alice', 'bob', 'Mary', 'Mary Ann'];

describe('mentionedUsernames', () => {
  it('finds each mentioned member once, in order, the longer name winning', () => {
    expect(mentionedUsernames('@bob hi @Mary Ann and @ALICE, @bob again', NAMES)).toEqual(['bob', 'Mary Ann', 'alice']);
    expect(mentionedUsernames('no one here', NAMES)).toEqual([]);
  });
  it('counts mentions inside formatting, quotes and lists', () => {
    expect(mentionedUsernames('**@alice** _@bob_ ~~@Mary~~', NAMES)).toEqual(['alice', 'bob', 'Mary']);
    expect(mentionedUsernames('> @alice\n- @bob', NAMES)).toEqual(['alice', 'bob']);
    expect(mentionedUsernames('\\@alice', NAMES)).toEqual(['alice']);
  });
  it('leaves out code spans, code blocks, link text and addresses', () => {
    expect(mentionedUsernames('see `@alice` here', NAMES)).toEqual([]);
    expect(mentionedUsernames('look:\n```\n@alice\n```\n', NAMES)).toEqual([]);
    expect(mentionedUsernames('[@alice](https://example.com)', NAMES)).toEqual([]);
    expect(mentionedUsernames('https://social.example/@alice', NAMES)).toEqual([]);
    expect(mentionedUsernames('`x`@alice and\n```\n@bob', NAMES)).toEqual(['alice']);
  });
  it('does not join names across what was left out', () => {
    expect(mentionedUsernames('@Mary`code` Ann', NAMES)).toEqual(['Mary']);
    expect(mentionText('a `b` c')).toBe('a \n c');
  });
  it('an underscore inside a word stays part of it', () => {
    expect(mentionedUsernames('@bob_smith', NAMES)).toEqual([]);
    expect(mentionsMember('snake_case @bob_', 'bob')).toBe(false);
  });
});
