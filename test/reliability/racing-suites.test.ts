// The suites that race many clients, processes or signals against time: 50 concurrent writers, two
// servers on one database, 16 concurrent first starts, a thousand subscribers, SIGTERM and SIGKILL
// mid-request, a database cut away. They run as this one file, so one worker runs them one after
// another and they never compete with each other, while the other worker runs the rest of the
// suite. vitest.config.ts leaves their own files out and starts this one first. One of them alone:
// npx vitest run test/reliability/racing-suites.test.ts -t "SIGTERM".
import "./concurrent-writes.test.js";
import "./two-processes.test.js";
import "./concurrent-start.test.js";
import "./cross-account-writes.test.js";
import "./shutdown.test.js";
import "./crash-durability.test.js";
import "./database-outage.test.js";
import "../api/events/fan-out.test.js";
