import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createSesMailer } from './mailer';
import { createSnsSmsSender } from './sms';

const ses = mockClient(SESv2Client);
const sns = mockClient(SNSClient);

afterEach(() => {
  ses.reset();
  sns.reset();
});

describe('SES mailer', () => {
  it('sends a simple UTF-8 message with text and HTML from MAIL_FROM', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await createSesMailer(new SESv2Client({ region: 'eu-north-1' }), 'no-reply@example.se').send({
      to: 'anna@example.se',
      subject: 'Återställ lösenord',
      text: 'Hej Anna',
      html: '<p>Hej Anna</p>',
    });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input).toEqual({
      FromEmailAddress: 'no-reply@example.se',
      Destination: { ToAddresses: ['anna@example.se'] },
      Content: {
        Simple: {
          Subject: { Data: 'Återställ lösenord', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Hej Anna', Charset: 'UTF-8' }, Html: { Data: '<p>Hej Anna</p>', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('passes SES errors on', async () => {
    ses.on(SendEmailCommand).rejects(new Error('MessageRejected'));
    await expect(
      createSesMailer(new SESv2Client({ region: 'eu-north-1' }), 'no-reply@example.se').send({ to: 'a@b.se', subject: 's', text: 't', html: 'h' }),
    ).rejects.toThrow('MessageRejected');
  });
});

describe('SNS SMS sender', () => {
  it('publishes a transactional SMS with the sender id when one is set', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 's-1' });
    await createSnsSmsSender(new SNSClient({ region: 'eu-north-1' }), 'Tracker').send({ to: '+46701234567', text: 'Larm: enheten rör sig' });
    expect(sns.commandCalls(PublishCommand)[0]?.args[0].input).toEqual({
      PhoneNumber: '+46701234567',
      Message: 'Larm: enheten rör sig',
      MessageAttributes: {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'Tracker' },
      },
    });
  });

  it('leaves the sender id out when none is configured', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 's-2' });
    await createSnsSmsSender(new SNSClient({ region: 'eu-north-1' })).send({ to: '+4791234567', text: 'Kode 123456' });
    expect(sns.commandCalls(PublishCommand)[0]?.args[0].input).toEqual({
      PhoneNumber: '+4791234567',
      Message: 'Kode 123456',
      MessageAttributes: { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } },
    });
  });

  it('sends from a phone number as the origination number, not as a sender id SNS would refuse', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 's-4' });
    await createSnsSmsSender(new SNSClient({ region: 'eu-north-1' }), 'Tracker').send({ to: '+46701234567', text: 'Larm', senderId: '+46709876543' });
    expect(sns.commandCalls(PublishCommand)[0]?.args[0].input.MessageAttributes).toEqual({
      'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
      'AWS.MM.SMS.OriginationNumber': { DataType: 'String', StringValue: '+46709876543' },
    });
  });

  it('leaves out a stored sender SNS would refuse (a space, two letters) and still sends the SMS, from the deployment\'s sender if any', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 's-5' });
    for (const senderId of ['Fleet AB', 'AB']) {
      await createSnsSmsSender(new SNSClient({ region: 'eu-north-1' })).send({ to: '+46701234567', text: 'Larm', senderId });
      await createSnsSmsSender(new SNSClient({ region: 'eu-north-1' }), 'Tracker').send({ to: '+46701234567', text: 'Larm', senderId });
    }
    const type = { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } };
    expect(sns.commandCalls(PublishCommand).map((call) => call.args[0].input.MessageAttributes)).toEqual([
      type,
      { ...type, 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'Tracker' } },
      type,
      { ...type, 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'Tracker' } },
    ]);
  });

  it('sends to E.164 only: an older stored form is refused before SNS reads it its own way', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 's-3' });
    const sender = createSnsSmsSender(new SNSClient({ region: 'eu-north-1' }));
    for (const to of ['+46-701234567', '0701234567', '46701234567']) await expect(sender.send({ to, text: 'Larm' }), to).rejects.toThrow('E.164');
    expect(sns.commandCalls(PublishCommand)).toHaveLength(0);
  });
});
