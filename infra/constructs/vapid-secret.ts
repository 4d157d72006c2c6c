/**
 * The seed of the Web Push VAPID keys (docs/decisions/0048-web-push.md): random text that Secrets
 * Manager generates when the stack creates the secret, from which every function derives the same
 * P-256 key pair (functions/platform/adapters/web-push.ts). Nothing writes it after that, so no two
 * cold starts can race to create keys, and no key is in the template.
 *
 * The browsers' subscriptions are bound to the public key: replacing this secret (a new logical id,
 * or a rotation) makes every subscription invalid until each browser subscribes again.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/** Characters of the generated seed: letters and digits, about 380 bits. */
export const VAPID_SEED_LENGTH = 64;

export class VapidSecret extends Construct {
  readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Seed', {
      description: 'Seed of the Web Push VAPID key pair; the browsers\' push subscriptions are bound to it',
      generateSecretString: { passwordLength: VAPID_SEED_LENGTH, excludePunctuation: true, includeSpace: false },
      // Deleted with the stack, the keys would be lost and every browser would have to subscribe again.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.secret, [
      [
        'AwsSolutions-SMG4',
        'No automatic rotation: the browsers\' push subscriptions are bound to the VAPID public key derived from this seed, so a rotated seed would silently end every subscription. It is replaced deliberately, after which each browser subscribes again (docs/decisions/0048-web-push.md).',
      ],
    ]);
  }
}
