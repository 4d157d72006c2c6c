import { PublishCommand, type MessageAttributeValue, type SNSClient } from '@aws-sdk/client-sns';
import { assertE164, type SmsMessage, type SmsSender } from '../../ports';

/**
 * SMS through SNS Publish to a phone number. Alarms and codes are Transactional (delivered with
 * priority, also to numbers that opted out of promotional texts). The sender id is used where the
 * destination country supports alphanumeric senders (Sweden and Norway do).
 */
export function createSnsSmsSender(client: SNSClient, senderId?: string): SmsSender {
  return {
    async send(message: SmsMessage) {
      assertE164(message.to);
      const attributes: Record<string, MessageAttributeValue> = {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
      };
      const sender = message.senderId ?? senderId;
      if (sender) attributes['AWS.SNS.SMS.SenderID'] = { DataType: 'String', StringValue: sender };
      await client.send(new PublishCommand({ PhoneNumber: message.to, Message: message.text, MessageAttributes: attributes }));
    },
  };
}
