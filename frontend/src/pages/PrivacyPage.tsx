/**
 * /privacy: what this service stores, where, for how long, and how rooms are encrypted and destroyed (docs/crypto.md,
 * docs/architecture.md), with its two promises (docs/product/accounts.md A14): personal data is removed within 30 days of
 * account deletion; the service is not for children under 13. Every sentence here must stay true of the code.
 */
import { AppLink } from '../components/AppLink.tsx';
import { StaticPage, StaticSection } from './StaticPage.tsx';

export function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      description="What Ephemera stores, for how long, and how it is deleted: room content is encrypted under a per-room key that is destroyed when the room ends; account data is removed within 30 days of account deletion."
      heading="Privacy Policy"
      lead="Ephemera is built to forget. This page says what we keep while a room or an account exists, and how it goes away."
      testId="privacy-page"
    >
      <StaticSection id="summary" title="In short">
        <ul>
          <li>You can chat without an account: a room only knows the username you pick for it.</li>
          <li>
            Everything said in a room is stored encrypted under that room's own key. When the room is deleted or
            expires, the key is destroyed and the content can never be read again, not even from backups.
          </li>
          <li>
            <strong data-testid="privacy-deletion">Personal data is removed within 30 days of account deletion.</strong>
          </li>
          <li>
            <strong data-testid="privacy-children">Ephemera is not for children under 13.</strong>
          </li>
          <li>No advertising, no third-party trackers, and we never sell data.</li>
        </ul>
      </StaticSection>

      <StaticSection id="rooms" title="Rooms and what is said in them">
        <p>
          For each room we store its name (it is the room's public address), its settings, when it was created and when
          it expires, and its members: the username and optional profile picture each person chose, their role, and a
          random member token (kept only as a hash). A room password is kept only as a slow, salted hash.
        </p>
        <p>
          Messages, replies, edits, reactions, link previews, files, voice messages, usernames and profile pictures are
          encrypted at rest with AES-256-GCM under a data key that belongs to that one room, in our event log and in our
          database alike. Search works on keyed hashes of words, never on readable text. Who is online and who is typing
          is kept only briefly, in memory or a cache, with names encrypted, and fades within about a minute.
        </p>
        <h3>How a room is destroyed</h3>
        <p>
          Free rooms expire after 24 hours and Pro rooms after up to 7 days; Business rooms stay until they are deleted,
          and an owner can delete any room at any time. When a room ends, its key is destroyed first: from that moment
          every copy of its content, in the database, its write-ahead log, the event log or a backup taken at any time,
          is ciphertext nobody can open. The room's rows and uploaded files are then removed. Files are also removed on
          their own after 24 hours on Free and 7 days on Pro.
        </p>
        <p>
          What stays readable after a room ends: its name, random ids and timestamps in the event log. People who were
          in the room keep whatever they saw or downloaded on their own devices.
        </p>
      </StaticSection>

      <StaticSection id="accounts" title="Accounts">
        <p>
          An account is optional. It holds your e-mail address, your username, your plan, its payment status and renewal
          date, your auto-renewal choice and, if you sign in with Google, your Google account id and picture. Sign-in
          codes are stored only as hashes for 10 minutes; sessions are stored as hashes and last 30 days unless you sign
          out. Your account's history is encrypted under a key of its own.
        </p>
        <p>
          From the dashboard you can export everything we keep about your account as a file, and delete the account.
          Deleting it deletes the rooms it owns, signs out every device, destroys your account's key and removes your
          record at once. <strong>Personal data is removed within 30 days of account deletion</strong>; the encrypted
          copies left in logs and backups cannot be read once the key is gone.
        </p>
      </StaticSection>

      <StaticSection id="payments" title="Payments">
        <p>
          Payments are handled by Stripe on its own checkout pages: your card details never reach our servers. We keep
          Stripe's customer and subscription ids for your account, the plan, and when it renews or ends. Stripe
          processes payment data under its own privacy policy.
        </p>
      </StaticSection>

      <StaticSection id="contact-messages" title="Messages you send us">
        <p>
          The{' '}
          <AppLink href="/contact" className="text-link">
            contact form
          </AppLink>{' '}
          sends us your name, e-mail address, the subject you chose and your message. Each message is encrypted in our
          event log under a key of its own, which is destroyed when we delete the message; we keep it only as long as we
          need to answer you. The newsletter box on the form is not sent to us: we run no mailing list.
        </p>
      </StaticSection>

      <StaticSection id="technical" title="Connections, calls and your browser">
        <ul>
          <li>
            Your network address is used to count requests for rate limits (against spam and password guessing); these
            counts expire within an hour.
          </li>
          <li>Our logs never contain message content or passwords.</li>
          <li>
            Link previews are fetched by our server, not your browser, and their images are passed through our site: the
            linked site sees our server, not you.
          </li>
          <li>
            Calls are peer-to-peer: audio and video go between the two browsers, encrypted by WebRTC (through a relay,
            still encrypted, when no direct path exists). Our servers carry only the call setup and keep no record of
            calls.
          </li>
          <li>
            Your browser keeps your room session (room, username, member token, and the room's password if it has one),
            your account's sign-in token and your display preferences in its local storage. Where several servers run, a
            cookie keeps your live connection on one of them; Google sign-in uses a two-minute cookie. Clearing your
            browser's site data removes them all.
          </li>
        </ul>
      </StaticSection>

      <StaticSection id="children" title="Children">
        <p>
          Ephemera is not for children under 13, and we do not knowingly collect data from them. If you believe a child
          under 13 has given us personal data,{' '}
          <AppLink href="/contact" className="text-link">
            contact us
          </AppLink>{' '}
          and we will delete it.
        </p>
      </StaticSection>

      <StaticSection id="changes" title="Changes and questions">
        <p>
          If this policy changes, we will update this page. Questions about your data, or a request to see or delete it:
          use the{' '}
          <AppLink href="/contact" className="text-link">
            contact form
          </AppLink>
          .
        </p>
      </StaticSection>
    </StaticPage>
  );
}
