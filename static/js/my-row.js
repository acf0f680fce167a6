// Marks the reader's own row in a stored standings table. The stored page is the same HTML for
// everyone (it is rendered once per change, not per visitor), so the mark is added here; the
// "you" badge is the stylesheet's, so the name's text (sorting, copying) stays the name.
(function () {
  var page = document.querySelector(".stored-page[data-me]");
  var me = page && page.dataset.me;
  if (!me) return;
  document.querySelectorAll('tr[data-user="' + me + '"]').forEach(function (row) {
    row.classList.add("mine");
  });
})();
