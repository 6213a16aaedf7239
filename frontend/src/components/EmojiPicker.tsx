/**
 * The full emoji picker (frimousse, unstyled and accessible), loaded on demand with React.lazy (LazyEmojiPicker):
 * it and its data (emojibase-data, bundled into this chunk, never fetched from a CDN) stay out of the initial JS.
 */
import { EmojiPicker as Picker, type EmojiData, type Locale } from 'frimousse';
import { useLocale, useT } from '../i18n/i18n.ts';

type EmojibaseEmoji = {
  label: string;
  emoji: string;
  group?: number;
  subgroup?: number;
  order?: number;
  version: number;
  tags?: string[];
  skins?: { emoji: string; tone?: number | number[] }[];
};
type EmojibaseMessages = {
  groups: { key: string; message: string; order: number }[];
  subgroups: { key: string; message: string; order: number }[];
  skinTones: { key: string; message: string }[];
};

const TONES = ['light', 'medium-light', 'medium', 'medium-dark', 'dark'] as const;
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type EmojibaseData = [{ default: EmojibaseEmoji[] }, { default: EmojibaseMessages }];

/** emojibase's names and categories in the interface's language: each language's data is a chunk of its own */
const EMOJI_DATA: Record<'en' | 'de', () => Promise<EmojibaseData>> = {
  en: () =>
    Promise.all([
      import('emojibase-data/en/data.json') as Promise<{ default: EmojibaseEmoji[] }>,
      import('emojibase-data/en/messages.json') as Promise<{ default: EmojibaseMessages }>,
    ]),
  de: () =>
    Promise.all([
      import('emojibase-data/de/data.json') as Promise<{ default: EmojibaseEmoji[] }>,
      import('emojibase-data/de/messages.json') as Promise<{ default: EmojibaseMessages }>,
    ]),
};

/** emojibase's data in frimousse's shape (the transformation frimousse applies to what it would fetch). */
async function resolveEmojiData(locale: Locale): Promise<EmojiData> {
  const [{ default: emojis }, { default: messages }] = await EMOJI_DATA[locale === 'de' ? 'de' : 'en']();
  const flags = new Set(
    messages.subgroups.filter((s) => s.key === 'country-flag' || s.key === 'subdivision-flag').map((s) => s.order),
  );
  const skinTones = Object.fromEntries(
    messages.skinTones.map((t) => [t.key, capitalize(t.message)]),
  ) as EmojiData['skinTones'];
  return {
    locale,
    categories: messages.groups
      .filter((g) => g.key !== 'component')
      .map((g) => ({ index: g.order, label: capitalize(g.message) })),
    skinTones,
    // emoji newer than 15 often render as empty boxes in current system fonts
    emojis: emojis
      .filter((e) => typeof e.group === 'number' && e.group !== 2 && e.version <= 15)
      .map((e) => {
        const single = e.skins?.filter((s) => typeof s.tone === 'number') ?? [];
        const skins = single.length
          ? (Object.fromEntries(single.map((s) => [TONES[(s.tone as number) - 1], s.emoji])) as Record<
              (typeof TONES)[number],
              string
            >)
          : undefined;
        return {
          emoji: e.emoji,
          category: e.group!,
          label: capitalize(e.label),
          version: e.version,
          tags: e.tags ?? [],
          ...(flags.has(e.subgroup ?? -1) ? { countryFlag: true as const } : {}),
          ...(skins ? { skins } : {}),
        };
      }),
  };
}

export interface EmojiPickerProps {
  onPick(emoji: string): void;
}

export default function EmojiPicker({ onPick }: EmojiPickerProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <Picker.Root
      locale={locale}
      className="emoji-picker"
      onEmojiSelect={({ emoji }) => onPick(emoji)}
      resolveEmojiData={resolveEmojiData}
      columns={8}
      data-testid="emoji-picker"
    >
      <Picker.Search
        className="emoji-picker-search"
        aria-label={t('room.emoji.search')}
        autoFocus
        data-testid="emoji-search"
      />
      <Picker.Viewport className="emoji-picker-viewport">
        <Picker.Loading className="emoji-picker-status">{t('room.emoji.loading')}</Picker.Loading>
        <Picker.Empty className="emoji-picker-status">{t('room.emoji.none')}</Picker.Empty>
        <Picker.List
          className="emoji-picker-list"
          components={{
            CategoryHeader: ({ category, ...props }) => (
              <div className="emoji-picker-category" {...props}>
                {category.label}
              </div>
            ),
            Emoji: ({ emoji, ...props }) => (
              <button type="button" className="emoji-picker-emoji" {...props} data-testid="emoji-option">
                {emoji.emoji}
              </button>
            ),
          }}
        />
      </Picker.Viewport>
    </Picker.Root>
  );
}
