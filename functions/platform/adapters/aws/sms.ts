import { PublishCommand, type MessageAttributeValue, type SNSClient } from '@aws-sdk/client-sns';
import { SMS_ORIGINATION_NUMBER_PATTERN, SMS_SENDER_ID_PATTERN } from '../../../../shared/schemas/alarms';
import { logger } from '../../logger';
import { assertE164, type SmsMessage, type SmsSender } from '../../ports';

/**
 * SMS through SNS Publish to a phone number. Alarms and codes are Transactional (delivered with
 * priority, also to numbers that opted out of promotional texts). The sender (the message's, else
 * the deployment's SMS_SENDER_ID) goes as the sender id where it is a name, which countries that
 * support alphanumeric senders show (Sweden and Norway do), and as the origination number where
 * it is a phone number. A message's sender SNS would refuse (stored before the rule was tightened:
 * a space, two letters) is left out rather than failing the alarm: the SMS goes from the
 * deployment's sender, or the one SNS picks.
 */
export function createSnsSmsSender(client: SNSClient, senderId?: string): SmsSender {
  return {
    async send(message: SmsMessage) {
      assertE164(message.to);
      const attributes: Record<string, MessageAttributeValue> = {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
      };
      const usable = (sender: string | undefined) => sender !== undefined && (SMS_ORIGINATION_NUMBER_PATTERN.test(sender) || SMS_SENDER_ID_PATTERN.test(sender));
      if (message.senderId && !usable(message.senderId)) logger.warn('SMS sender left out: neither a sender id nor an E.164 number', { sender: message.senderId });
      const sender = [message.senderId, senderId].find(usable);
      if (sender && SMS_ORIGINATION_NUMBER_PATTERN.test(sender)) attributes['AWS.MM.SMS.OriginationNumber'] = { DataType: 'String', StringValue: sender };
      else if (sender) attributes['AWS.SNS.SMS.SenderID'] = { DataType: 'String', StringValue: sender };
      await client.send(new PublishCommand({ PhoneNumber: message.to, Message: message.text, MessageAttributes: attributes }));
    },
  };
}
