import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailMessage, Mailer } from '../../ports';

const CHARSET = 'UTF-8';

/** E-mail through SES v2; the sender identity (env MAIL_FROM) is verified in SES by the stack. */
export function createSesMailer(client: SESv2Client, from: string): Mailer {
  return {
    async send(message: EmailMessage) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: CHARSET },
              Body: {
                Text: { Data: message.text, Charset: CHARSET },
                Html: { Data: message.html, Charset: CHARSET },
              },
            },
          },
        }),
      );
    },
  };
}
