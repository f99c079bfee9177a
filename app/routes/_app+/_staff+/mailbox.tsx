import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/modules/auth/guard.server";
import { localTime } from "~/modules/calendar/site-time";
import { latestMessages } from "~/modules/mail/mailer.server";
import { latestSmsMessages } from "~/modules/notifications/sms.server";

export const meta: MetaFunction = () => [{ title: "Mailbox · FreightDesk" }];

/** E-mail the product stored instead of sending (no SMTP_URL): staff read it here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const [messages, texts] = await Promise.all([latestMessages(context.db), latestSmsMessages(context.db)]);
  // times as the user reads them (their clock), the same text on the server and in the browser
  const at = (d: Date) => ({ at: d.toISOString(), localAt: localTime(d, user.clock.timeZone, user.clock.dateFormat) });
  return {
    transport: context.mailer.transport,
    messages: messages.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, ...at(m.createdAt) })),
    texts: texts.map((m) => ({ id: m.id, to: m.to, body: m.body, ...at(m.createdAt) })),
  };
}

export default function Mailbox() {
  const { transport, messages, texts } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Mailbox</h1>
      <p className="text-sm text-slate-600">
        {transport === "smtp"
          ? "E-mail is sent through SMTP; this list shows only messages stored before SMTP was configured."
          : "No SMTP server is configured, so every e-mail the product sends is kept here instead (newest first, 100 at most)."}
      </p>
      {messages.length === 0 ? (
        <p className="text-sm text-slate-500">There are no messages to display.</p>
      ) : (
        messages.map((m) => (
          <article key={m.id} className="card" aria-label={m.subject} data-testid="mail-message">
            <header className="text-sm">
              <span className="font-semibold">{m.subject}</span> · to {m.to} · <time dateTime={m.at}>{m.localAt}</time>
            </header>
            <pre className="mt-2 whitespace-pre-wrap text-sm text-slate-700">{m.text}</pre>
          </article>
        ))
      )}
      <h2 className="pt-2 text-lg font-semibold">Text messages</h2>
      <p className="text-sm text-slate-600">Without an SMS gateway (SMS_GATEWAY_URL), text messages are kept here instead of being sent.</p>
      {texts.length === 0 ? (
        <p className="text-sm text-slate-500">There are no text messages to display.</p>
      ) : (
        texts.map((m) => (
          <article key={m.id} className="card" aria-label={`Text message to ${m.to}`} data-testid="sms-message">
            <header className="text-sm">
              <span className="font-semibold">To {m.to}</span> · <time dateTime={m.at}>{m.localAt}</time>
            </header>
            <p className="mt-2 whitespace-pre-wrap text-sm text-slate-700">{m.body}</p>
          </article>
        ))
      )}
    </div>
  );
}
