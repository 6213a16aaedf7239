/**
 * The interface's texts (docs/i18n.md): fails when a text used in the code has no translation, when a catalog key is
 * not used, when the locales disagree on a message's placeholders, and when a converted file shows a text of its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, LOCALES, SOURCE_LOCALE } from './locales.ts';
import {
  SRC_DIR,
  allCatalogs,
  isConverted,
  placeholders,
  sourceFiles,
  unlocalizedTexts,
  usedKeys,
} from './catalogCheck.ts';

/** Files that must stay converted, whatever they import (docs/i18n.md lists the converted areas). */
const MUST_BE_CONVERTED = [
  'pages/Landing.tsx',
  'components/SiteNav.tsx',
  'components/SiteFooter.tsx',
  'components/LanguageSwitcher.tsx',
  'components/Faq.tsx',
  'components/FeatureGrid.tsx',
  'components/RoomNameForm.tsx',
  'components/JoinOverlay.tsx',
  'components/StatusScreens.tsx',
  'components/BackToTop.tsx',
  'components/EmailCodeForm.tsx',
  'components/overlays/MaintenanceBanner.tsx',
  'pages/StaticPage.tsx',
  'pages/AboutPage.tsx',
  'pages/FeaturesPage.tsx',
  'pages/PrivacyPage.tsx',
  'pages/TermsPage.tsx',
  'pages/ContactPage.tsx',
  'pages/LoginPage.tsx',
  'pages/PlaceholderPage.tsx',
  'pages/DashboardPage.tsx',
  'pages/DashboardRooms.tsx',
  'pages/DashboardRenewal.tsx',
  'pages/SubscriptionPage.tsx',
  'pages/UpgradePage.tsx',
  'pages/PaymentSuccessPage.tsx',
  'pages/PaymentCancelledPage.tsx',
  'pages/superadmin/SuperadminPage.tsx',
  'pages/superadmin/DashboardTab.tsx',
  'pages/superadmin/AskDialog.tsx',
  'pages/superadmin/AdminUpgradeDialog.tsx',
  'pages/superadmin/Pager.tsx',
  'pages/superadmin/ui.tsx',
  'pages/superadmin/UsersTab.tsx',
  'pages/superadmin/RoomsTab.tsx',
  'pages/superadmin/AnalyticsTab.tsx',
  'pages/superadmin/AnalyticsCharts.tsx',
  'pages/superadmin/RevenueFilter.tsx',
  'pages/superadmin/SystemTab.tsx',
  'pages/superadmin/BackupsPanel.tsx',
  'pages/superadmin/FeedbackTab.tsx',
  'pages/superadmin/ModerationViewer.tsx',
  'pages/superadmin/SettingsTab.tsx',
  'App.tsx',
  'components/ChatArea.tsx',
  'components/ChatHeader.tsx',
  'components/MessageList.tsx',
  'components/MessageItem.tsx',
  'components/MessageActions.tsx',
  'components/MessageEditor.tsx',
  'components/Composer.tsx',
  'components/ReplyBar.tsx',
  'components/ChannelIntro.tsx',
  'components/ReactionBar.tsx',
  'components/EmojiPicker.tsx',
  'components/LazyEmojiPicker.tsx',
  'components/LinkPreviewCard.tsx',
  'components/DeliveryMark.tsx',
  'components/InviteCard.tsx',
  'components/ExpiryBanner.tsx',
  'components/files/FileUploadModal.tsx',
  'components/files/MessageAttachment.tsx',
  'components/files/UploadTray.tsx',
  'components/files/VoiceRecorder.tsx',
  'components/calls/CallButtons.tsx',
  'components/calls/CallUpgradeModal.tsx',
  'components/calls/CallWindow.tsx',
  // the room's frame (roomside)
  'components/Sidebar.tsx',
  'components/sidebar/AvailableToMessage.tsx',
  'components/sidebar/ChannelMembersModal.tsx',
  'components/sidebar/ChannelRow.tsx',
  'components/sidebar/ConfirmModals.tsx',
  'components/sidebar/DmRow.tsx',
  'components/sidebar/EditProfileModal.tsx',
  'components/sidebar/MemberPicker.tsx',
  'components/sidebar/PersonAvatar.tsx',
  'components/sidebar/RoomHeader.tsx',
  'components/sidebar/SidebarSearch.tsx',
  'components/sidebar/StatusMenu.tsx',
  'components/sidebar/UnreadBadge.tsx',
  'components/RoomView.tsx',
  'components/CreateChannelModal.tsx',
  'components/UpgradePromptModal.tsx',
  'components/Modal.tsx',
  'components/overlays/RemovedFromWorkspaceDialog.tsx',
  'components/overlays/SuccessDialog.tsx',
  'components/overlays/Toast.tsx',
  'components/overlays/UpgradeDialog.tsx',
  'components/admin/AdminModals.tsx',
  'components/admin/adminForm.tsx',
  'components/admin/PasswordModal.tsx',
  'components/sidebar/SidebarHeader.tsx',
  'components/sidebar/SidebarFooter.tsx',
  'components/calls/CallStage.tsx',
  'components/calls/CallControls.tsx',
  'pages/superadmin/UsersTable.tsx',
  'pages/superadmin/UserBreakdowns.tsx',
  'components/admin/ClaimRoomModal.tsx',
  'components/admin/ExtendChoices.tsx',
  'components/admin/ExtendModal.tsx',
  'components/admin/PlansModal.tsx',
  'components/admin/SettingsPanel.tsx',
  'components/admin/ThemeModal.tsx',
  'components/NotificationToggle.tsx',
  'components/SoundToggle.tsx',
  'pages/RoomPage.tsx',
];

const catalogs = allCatalogs();
const source = catalogs.get(SOURCE_LOCALE)!;
const files = sourceFiles();
const used = usedKeys(files);
const usedSet = new Set([...used.values()].flat());

describe('the catalogs', () => {
  for (const area of AREAS) {
    const english = source.get(area)!;
    it(`${area}: every key is the area's and every English message parses`, () => {
      const foreign = Object.keys(english).filter((key) => !key.startsWith(`${area}.`));
      expect(foreign, `keys in ${area}.json must start with "${area}."`).toEqual([]);
      for (const [key, message] of Object.entries(english)) expect(() => placeholders(message), key).not.toThrow();
    });
    for (const { code } of LOCALES.filter((l) => l.code !== SOURCE_LOCALE)) {
      it(`${area}: ${code} translates every English key, with the same placeholders, and nothing else`, () => {
        const translated = catalogs.get(code)!.get(area)!;
        const missing = Object.keys(english).filter((key) => !translated[key]?.trim());
        const extra = Object.keys(translated).filter((key) => !(key in english));
        expect(missing, `${code}/${area}.json lacks these texts`).toEqual([]);
        expect(extra, `${code}/${area}.json has keys English does not`).toEqual([]);
        const differing = Object.keys(english).filter(
          (key) => placeholders(english[key]!).join() !== placeholders(translated[key]!).join(),
        );
        expect(differing, `${code}/${area}.json: placeholders differ from English`).toEqual([]);
      });
    }
  }
});

describe('the code and the catalogs', () => {
  it('every key the code uses has an English text (and so, above, every other locale’s)', () => {
    const known = new Set([...source.values()].flatMap((c) => Object.keys(c)));
    const unknown = [...used].flatMap(([file, keys]) =>
      keys.filter((k) => !known.has(k)).map((k) => `${path.relative(SRC_DIR, file)}: ${k}`),
    );
    expect(unknown).toEqual([]);
  });

  it('every catalog key is used in the code (as a quoted literal, so this check can see it)', () => {
    const unused = [...source.values()].flatMap((c) => Object.keys(c)).filter((key) => !usedSet.has(key));
    expect(unused).toEqual([]);
  });

  it('a converted file shows no text of its own: its JSX texts and read attributes come from the catalogs', () => {
    const scanned = files.filter((file) => isConverted(readFileSync(file, 'utf8')));
    const listed = MUST_BE_CONVERTED.map((f) => path.join(SRC_DIR, f));
    const notConverted = listed.filter((f) => !scanned.includes(f)).map((f) => path.relative(SRC_DIR, f));
    expect(notConverted, 'these files must take their texts from the catalogs').toEqual([]);
    const bypassing = scanned.flatMap((file) => unlocalizedTexts(file, readFileSync(file, 'utf8')));
    expect(bypassing).toEqual([]);
  });
});

describe('the check itself', () => {
  it('finds a JSX text, a read attribute and a literal child, and lets keys, names and markup through', () => {
    const found = unlocalizedTexts(
      path.join(SRC_DIR, 'x.tsx'),
      `const a = <p title="Hello there">Welcome back <b>{'friend'}</b>{t('common.nav.home')} Ephemera {name}</p>;`,
    );
    expect(found).toEqual(['x.tsx:1 title="Hello there"', 'x.tsx:1 text "Welcome back"', "x.tsx:1 text {'friend'}"]);
  });

  it('reads placeholders and numbered tags through plurals', () => {
    expect(placeholders('{count, plural, one {# new <0>message</0>} other {# {kind} messages}}')).toEqual([
      '<0>',
      'count',
      'kind',
    ]);
    expect(() => placeholders('{count, plural, one {# x}')).toThrow();
  });
});
