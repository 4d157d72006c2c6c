/**
 * The scheduled jobs of infra/jobs.ts on EventBridge Scheduler (docs/decisions/0014): one schedule
 * per job, in a schedule group of this stack, each invoking the `jobs` function with
 * `{ "job": name }`. A cron(...) job runs in its `timeZone` (UTC when it names none), so 03:00
 * Europe/Stockholm stays 03:00 local time across daylight saving, as the embedded scheduler
 * (infra/local/scheduler.ts) runs it; EventBridge rules know only UTC.
 *
 * Scheduler invokes the function asynchronously. A delivery it cannot make (throttling, a missing
 * permission) is retried twice within an hour, then goes to the dead-letter queue; a handler that
 * fails is retried by Lambda's own asynchronous retries into the same queue (the function's
 * dead-letter config, infra/constructs/portal-function.ts).
 *
 * Scheduler assumes one role of ours, trusted only by schedules of this group in this account,
 * which may invoke the jobs function and send to the dead-letter queue, nothing else.
 */
import { Duration, RemovalPolicy, Stack, TimeZone } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { checkJobs, type JobDef } from '../jobs';
import { acknowledgeFindings } from './nag';

/** Scheduler's retry policy for a job's invocation. */
export const JOB_RETRY_ATTEMPTS = 2;
export const JOB_MAX_EVENT_AGE = Duration.hours(1);

/** The zone a job's expression is read in: its own, Etc/UTC when it names none (a rate(...) names none, and runs in no zone). */
export function scheduleTimeZone(job: Pick<JobDef, 'timeZone'>): TimeZone {
  return job.timeZone ? TimeZone.of(job.timeZone) : TimeZone.ETC_UTC;
}

export interface JobSchedulesProps {
  readonly jobs: readonly JobDef[];
  readonly function: lambda.IFunction;
  readonly deadLetterQueue: sqs.IQueue;
}

export class JobSchedules extends Construct {
  readonly group: scheduler.ScheduleGroup;
  /** The role Scheduler assumes to invoke the jobs function. */
  readonly role: iam.Role;
  /** By job name. */
  readonly schedules = new Map<string, scheduler.Schedule>();

  constructor(scope: Construct, id: string, props: JobSchedulesProps) {
    super(scope, id);
    checkJobs(props.jobs);
    const stack = Stack.of(this);

    // The schedules are the stack's own: they go with it (and with the group).
    this.group = new scheduler.ScheduleGroup(this, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': this.group.scheduleGroupArn } },
      }),
      description: 'EventBridge Scheduler: the scheduled jobs into the jobs function',
    });

    for (const job of props.jobs) {
      const schedule = new scheduler.Schedule(this, job.name, {
        description: job.description,
        scheduleGroup: this.group,
        schedule: scheduler.ScheduleExpression.expression(job.schedule, scheduleTimeZone(job)),
        target: new targets.LambdaInvoke(props.function, {
          role: this.role,
          input: scheduler.ScheduleTargetInput.fromObject({ job: job.name }),
          retryAttempts: JOB_RETRY_ATTEMPTS,
          maxEventAge: JOB_MAX_EVENT_AGE,
          deadLetterQueue: props.deadLetterQueue,
        }),
      });
      // The schedule names its group by name and its role by ARN: CloudFormation must create both
      // (and the role's policy) first, or the schedule lands in no group or fires without permission.
      schedule.node.addDependency(this.group, this.role);
      this.schedules.set(job.name, schedule);
    }

    // LambdaInvoke grants lambda:InvokeFunction on the function's ARN and on `<ARN>:*`.
    const functionId = stack.getLogicalId(props.function.node.defaultChild as lambda.CfnFunction);
    acknowledgeFindings(this.role, [
      {
        rule: 'AwsSolutions-IAM5',
        finding: new RegExp(`^Resource::<${functionId}\\.Arn>:\\*$`),
        reason:
          'aws-scheduler-targets LambdaInvoke grants lambda:InvokeFunction on the jobs function and its qualified ARNs (`<function ARN>:*`: versions and aliases of that same function); no other function.',
      },
    ]);
  }
}
