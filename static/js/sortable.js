// Click a column heading of a table.sortable to sort by it; click again to reverse.
// Progressive enhancement: without JavaScript the table keeps the server's order (by rank).
document.querySelectorAll("table.sortable").forEach(function (table) {
  var headings = table.tHead.rows[0].cells;
  function isNumberColumn(column) {
    var first = table.tBodies[0].rows[0];
    if (!first) return false;
    var cell = first.cells[column];
    return !isNaN(parseFloat(cell.dataset.sort || cell.textContent.trim()));
  }
  Array.prototype.forEach.call(headings, function (th, column) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    th.setAttribute("aria-sort", column === 0 ? "ascending" : "none");
    button.addEventListener("click", function () {
      var current = th.getAttribute("aria-sort");
      // A first click on a number column puts the biggest first (most wins, best spread);
      // names and the rank read from the top. Each further click reverses.
      var ascending = current === "none" ? column === 0 || !isNumberColumn(column) : current !== "ascending";
      Array.prototype.forEach.call(headings, function (other) { other.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var rows = Array.prototype.slice.call(table.tBodies[0].rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.sort || a.cells[column].textContent.trim();
        var y = b.cells[column].dataset.sort || b.cells[column].textContent.trim();
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { table.tBodies[0].appendChild(row); });
    });
  });
});
