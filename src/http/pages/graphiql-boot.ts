// The script that starts GraphiQL, served as a file like GraphiQL's own (graphiql-assets.ts), so the
// page has no inline script and its policy allows scripts from our origin only. The page hands it
// its configuration as JSON in <script type="application/json" id="graphiql-configuration">, which
// browsers never run: GraphiQL's options (starter document, demo token and variables) and the
// URLs of Monaco's editor workers, files of our origin (worker-src 'self', no blob: workers).
// It runs before GraphiQL's bundle, as Yoga's page does, and renders once the bundle has loaded.

export const GRAPHIQL_CONFIGURATION_ID = "graphiql-configuration";

export const GRAPHIQL_BOOT_SCRIPT = `(function () {
  "use strict";
  var configuration = JSON.parse(document.getElementById(${JSON.stringify(GRAPHIQL_CONFIGURATION_ID)}).textContent);
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (moduleId, label) {
      return configuration.workers[label];
    },
  };
  document.addEventListener("DOMContentLoaded", function () {
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), configuration.options);
  });
})();
`;
