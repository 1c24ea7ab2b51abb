// The operator's network rules as the domain asks for them when a webhook is created or changed:
// https to public addresses, anything for the hosts TOOLGATE_WEBHOOK_ALLOWED_HOSTS names. The sender
// checks the address again when it connects (DNS may answer differently by then).
import type { WebhookPolicy } from "../domain/webhooks.js";
import { webhookUrlProblems } from "./sender.js";

export function webhookUrlPolicy(allowedHosts: readonly string[]): WebhookPolicy {
  return { urlProblems: (url) => webhookUrlProblems(url, allowedHosts) };
}
