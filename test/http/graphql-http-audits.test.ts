// The graphql-http package's audits of the GraphQL-over-HTTP spec against a running toolgate. They
// send requests without a token, so anonymous `{ __typename }` must answer.
import { auditServer, type AuditResult } from "graphql-http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

/**
 * Audits that may answer other than ok (a warning, or a notice on a MAY), each with the spec
 * section that justifies it. None today: before issue 9, 572B, FDE2 and 7B9B warned (400 to
 * `application/json` request errors) and 5A70, D6D5, 6A70 were notices (GET refused without a CSRF header).
 */
const JUSTIFIED: Record<string, string> = {};

describeEachDatabase("graphql-http serverAudits", (provider) => {
  let service: TestService;
  let results: AuditResult[];
  beforeAll(async () => {
    service = await startTestService(provider);
    results = await auditServer({ url: `${service.url}/graphql` });
  });
  afterAll(() => service?.stopAndDrop());

  it("runs the audits", () => {
    expect(results.length).toBeGreaterThan(50);
  });

  it("passes every audit: no errors, no unjustified warnings or notices", async () => {
    const failing = await Promise.all(
      results
        .filter((result) => result.status !== "ok" && (result.status === "error" || !(result.id in JUSTIFIED)))
        .map(async (result) => ({
          id: result.id,
          status: result.status,
          name: result.name,
          reason: "reason" in result ? result.reason : undefined,
          response:
            "response" in result
              ? `${result.response.status} ${await result.response
                  .clone()
                  .text()
                  .catch(() => "")}`
              : undefined,
        })),
    );
    expect(failing).toEqual([]);
  });
});
