// The script that starts GraphiQL, served as a file like GraphiQL's own (graphiql-assets.ts), so the
// page has no inline script and its policy allows scripts from our origin only. The page hands it
// its configuration as JSON in <script type="application/json" id="graphiql-configuration">, which
// browsers never run: GraphiQL's options (starter document, demo token and variables) and the
// URLs of Monaco's editor workers, files of our origin (worker-src 'self', no blob: workers).
// It runs before GraphiQL's bundle, as Yoga's page does, and renders once the bundle has loaded.
// GraphiQL keeps its tabs, headers and variables in localStorage under keys of its own; here they go
// under the registry's scope (graphiql.ts, storageScope), so another database's token and ids,
// remembered from before a reset, are never sent to this one.

export const GRAPHIQL_CONFIGURATION_ID = "graphiql-configuration";

export const GRAPHIQL_BOOT_SCRIPT = `(function () {
  "use strict";
  var configuration = JSON.parse(document.getElementById(${JSON.stringify(GRAPHIQL_CONFIGURATION_ID)}).textContent);
  var prefix = "toolgate:" + configuration.storageScope + ":";
  var ownKeys = function () {
    var keys = [];
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (key !== null && key.indexOf(prefix) === 0) keys.push(key);
    }
    return keys;
  };
  configuration.options.storage = {
    getItem: function (key) { return localStorage.getItem(prefix + key); },
    setItem: function (key, value) { localStorage.setItem(prefix + key, value); },
    removeItem: function (key) { localStorage.removeItem(prefix + key); },
    clear: function () { ownKeys().forEach(function (key) { localStorage.removeItem(key); }); },
    get length() { return ownKeys().length; },
  };
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
