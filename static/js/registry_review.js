// Copy the normalised registry JSON; the button stays hidden where the clipboard is unavailable.
(function () {
  "use strict";
  var button = document.getElementById("copy-normalised");
  if (!button || !navigator.clipboard) { return; }
  var target = document.getElementById(button.getAttribute("data-copy-target"));
  var status = document.getElementById("copy-status");
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(target.value).then(
      function () { status.textContent = "Copied."; },
      function () { target.select(); status.textContent = "Select and copy the text manually."; }
    );
  });
})();
