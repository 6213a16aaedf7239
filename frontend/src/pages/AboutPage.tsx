/** /about: what Ephemera is, why rooms are temporary, and how it works (a static page, docs/product/accounts.md A14). */
import { AppLink } from '../components/AppLink.tsx';
import { StaticPage, StaticSection } from './StaticPage.tsx';

export function AboutPage() {
  return (
    <StaticPage
      title="About"
      description="Ephemera is instant, temporary group chat: open a room by its name, share the link and talk. Rooms and everything in them are deleted when they expire."
      heading="About Ephemera"
      lead="Group chat for the conversations that don't need to live forever: a trip, an event, a project sprint, a quick question to a few people."
      testId="about-page"
    >
      <StaticSection id="why" title="Why temporary?">
        <p>
          Most chat tools keep everything, forever, and ask you to sign up before you can say a word. Ephemera starts
          from the opposite end: a room exists for as long as you need it, then it is gone, together with every message,
          file and voice note in it. Nothing piles up, and nothing lingers on a server long after the conversation
          ended.
        </p>
        <p>
          Free rooms last 24 hours. Pro rooms last up to 7 days, Business rooms for as long as you keep them, and any
          room can be deleted by its owner at any moment.
        </p>
      </StaticSection>

      <StaticSection id="how" title="How it works">
        <ol className="steps">
          <li>
            <strong>1. Name a room</strong>Type a name on the home page. If it is free, it is yours.
          </li>
          <li>
            <strong>2. Share the link</strong>Anyone with the link joins with just a username. Add a password if you
            like.
          </li>
          <li>
            <strong>3. Talk, then let it go</strong>Messages, files, reactions and calls; when the room expires, it all
            disappears.
          </li>
        </ol>
      </StaticSection>

      <StaticSection id="principles" title="What we care about">
        <ul>
          <li>
            <strong>No sign-up to chat.</strong> Guests never need an account. An account is optional: it keeps your
            rooms on a dashboard across devices and lets you buy a plan.
          </li>
          <li>
            <strong>Deletion that means it.</strong> Each room's content is encrypted under a key of its own; deleting
            or expiring the room destroys the key, so even old backups cannot be read afterwards.
          </li>
          <li>
            <strong>Fast and simple.</strong> Messages arrive in real time and in order, and a dropped connection picks
            up where it left off.
          </li>
          <li>
            <strong>Fair pricing.</strong> Free covers a quick chat. Pro and Business add longer-lived rooms, calls and
            more; monthly, cancel anytime.
          </li>
        </ul>
      </StaticSection>

      <div className="static-cta">
        <AppLink href="/" className="button button-primary button-lg">
          Create a room
        </AppLink>
        <AppLink href="/features" className="button button-ghost button-lg">
          See all features
        </AppLink>
      </div>
    </StaticPage>
  );
}
