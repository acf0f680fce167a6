{% load static %}// The event's service worker (issue 52). It acts on the scoring tables' pages (a round's
// "…/rounds/N/scores/") and the tables' own pages ("…/rounds/N/tables/T/") only: each is
// fetched from the network when it can be, and the copy kept on the device is what loads while
// the hall is offline; a card (or a table's confirmation) posted while the server cannot be
// reached is kept with the page's other waiting cards (card-store.js) and the page loads again
// from its copy, listing it. Every other page and request passes straight through.
"use strict";
importScripts("{% static 'events/card-store.js' %}");
var PAGES = self.CardStore.PAGES;
var SCORING = /\/rounds\/\d+\/scores\/$/;
var TABLE = /\/rounds\/\d+\/tables\/\d+\/$/;
var TABLE_POST = /\/rounds\/\d+\/tables\/\d+\/(card|confirm)\/$/;
var ASSETS = [
  "{% static 'css/site.css' %}",
  "{% static 'favicon.svg' %}",
  "{% static 'events/card-store.js' %}",
  "{% static 'events/scores.js' %}",
  "{% static 'events/scores-offline.js' %}",
  "{% static 'events/table-offline.js' %}"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.addAll(ASSETS); }));
  self.skipWaiting();
});

// A table's page kept on a phone goes two days after its last online visit, with whatever
// was kept for it: as long as a phone remembers a slip, so a guest's phone, which never signs
// out, does not keep the table's names after the event.
var TABLE_KEPT_MS = 2 * 24 * 60 * 60 * 1000;

function prune() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        if (!TABLE.test(new URL(request.url).pathname)) return null;
        return cache.match(request).then(function (kept) {
          var when = kept ? Date.parse(kept.headers.get("Date") || "") : NaN;
          if (Date.now() - when > TABLE_KEPT_MS) {
            return cache.delete(request).then(function () {
              return self.CardStore.forget(request.url);
            });
          }
          return null;
        });
      }));
    });
  });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim().then(prune));
});

function page(request) {
  return fetch(request).then(function (response) {
    return caches.open(PAGES).then(function (cache) {
      if (response.ok && response.type === "basic" && !response.redirected) {
        return cache.put(request.url, response.clone()).then(function () { return response; });
      }
      if (response.status === 404 || response.status === 403) {
        // The table is no longer this person's: forget its page and the cards kept for it.
        return cache.delete(request.url).then(function () {
          return self.CardStore.forget(request.url);
        }).then(function () { return response; });
      }
      return response;
    });
  }, function () {
    return caches.match(request.url).then(function (kept) {
      return kept || new Response(
        "This page was not kept on this device: it opens again when the connection is back.",
        { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }
      );
    });
  });
}

// `pageUrl`: the page the form belongs to, which loads again listing what was kept.
function postOrKeep(request, pageUrl) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (data) {
      return self.CardStore.put(self.CardStore.fromForm(data, pageUrl));
    }).then(function () { return Response.redirect(pageUrl, 303); });
  });
}

function asset(request) {
  return fetch(request).then(function (response) {
    if (!response.ok) return response;
    var copy = response.clone();
    return caches.open(PAGES).then(function (cache) {
      return cache.put(request, copy);
    }).then(function () { return response; });
  }, function () {
    return caches.match(request).then(function (kept) { return kept || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.waitUntil(prune());
  if (url.search) return;
  var navigatePost = request.method === "POST" && request.mode === "navigate";
  if ((SCORING.test(url.pathname) || TABLE.test(url.pathname)) && request.method === "GET") {
    event.respondWith(page(request));
  } else if (SCORING.test(url.pathname) && navigatePost) {
    event.respondWith(postOrKeep(request, request.url));
  } else if (TABLE_POST.test(url.pathname) && navigatePost) {
    event.respondWith(postOrKeep(request, request.url.replace(/(card|confirm)\/$/, "")));
  } else if (request.method === "GET" && ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(asset(request));
  }
});
