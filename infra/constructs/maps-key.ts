/**
 * The web app's base map on AWS: an Amazon Location API key limited to map tiles of the AWS-owned
 * provider and to our own pages as referers, and the geo-maps v2 style URL carrying it. CloudFormation
 * cannot read a key's value, so it is looked up at deploy time (location:DescribeKey on this key only).
 * The key is public by design: browsers send it with every tile request; the restrictions guard it.
 */
import { Stack } from 'aws-cdk-lib';
import * as location from 'aws-cdk-lib/aws-location';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';

export const GEO_MAPS_ACTIONS = ['geo-maps:GetTile', 'geo-maps:GetStaticMap'] as const;

/**
 * The geo-maps v2 style descriptor URL. Without a key it still names the host the style, its tiles,
 * glyphs and sprites come from, which is all the CSP needs, and it does not wait for the key lookup
 * (the key's referers name the distribution, so the distribution cannot depend on the key).
 */
export function geoMapsStyleUrl(region: string, style: string, key?: string): string {
  const url = `https://maps.geo.${region}.amazonaws.com/v2/styles/${style}/descriptor`;
  return key === undefined ? url : `${url}?key=${key}`;
}

export interface MapsKeyProps {
  readonly keyName: string;
  /** geo-maps v2 style name, e.g. Standard. */
  readonly style: string;
  /** `arn:<partition>:geo-maps:<region>::provider/default`. */
  readonly providerArn: string;
  readonly allowReferers: string[];
}

export class MapsKey extends Construct {
  readonly key: location.CfnAPIKey;
  /** The MapLibre style descriptor URL with the key, for MAP_STYLE_URL. */
  readonly styleUrl: string;

  constructor(scope: Construct, id: string, props: MapsKeyProps) {
    super(scope, id);
    this.key = new location.CfnAPIKey(this, 'Key', {
      keyName: props.keyName,
      description: 'Map tiles for the web app (geo-maps v2)',
      noExpiry: true,
      restrictions: {
        allowActions: [...GEO_MAPS_ACTIONS],
        allowResources: [props.providerArn],
        allowReferers: props.allowReferers,
      },
    });
    const call: cr.AwsSdkCall = {
      service: 'Location',
      action: 'describeKey',
      parameters: { KeyName: this.key.keyName },
      physicalResourceId: cr.PhysicalResourceId.of(props.keyName),
      outputPaths: ['Key'],
    };
    const lookup = new cr.AwsCustomResource(this, 'Value', {
      onCreate: call,
      onUpdate: call,
      policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.key.attrKeyArn] }),
      installLatestAwsSdk: false,
      logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_WEEK }),
    });
    lookup.node.addDependency(this.key);
    this.styleUrl = geoMapsStyleUrl(Stack.of(this).region, props.style, lookup.getResponseField('Key'));
  }
}
