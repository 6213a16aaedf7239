/**
 * Several deployments (or test stacks) sharing one Kafka cluster: a namespace prefixes every topic and consumer
 * group, so each sees only its own events and its groups never share partitions with another's. A decorator, so
 * every adapter gets it and the services never see the prefix.
 */
import type { Topic } from '@ephemera/proto';
import type { EventLog, LogRecord, SubscribeOptions, Subscription } from './port.ts';

export class NamespacedEventLog implements EventLog {
  constructor(
    private readonly inner: EventLog,
    private readonly namespace: string,
  ) {
    if (!/^[A-Za-z0-9_-]+$/.test(namespace)) throw new Error(`invalid event log namespace "${namespace}"`);
  }

  private outer(topic: Topic): Topic {
    return `${this.namespace}.${topic}` as Topic;
  }
  private local(topic: string): Topic {
    return topic.slice(this.namespace.length + 1) as Topic;
  }

  init(topics: Topic[]): Promise<void> {
    return this.inner.init(topics.map((t) => this.outer(t)));
  }

  append(records: LogRecord[]): Promise<void> {
    return this.inner.append(records.map((r) => ({ ...r, topic: this.outer(r.topic) })));
  }

  subscribe(options: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe({
      ...options,
      groupId: `${this.namespace}.${options.groupId}`,
      topics: options.topics.map((t) => this.outer(t)),
      handler: (delivery) => options.handler({ ...delivery, topic: this.local(delivery.topic) }),
      handleMany:
        options.handleMany &&
        ((deliveries) => options.handleMany!(deliveries.map((d) => ({ ...d, topic: this.local(d.topic) })))),
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
