// The chat page: Ctrl+Enter (Cmd+Enter on a Mac) in the question box asks; when the page opens at
// an answer (a run's address ends in #result-heading) the answer heading takes the focus, so the
// next Tab reaches the answer's first citation; an inline citation number ([P1]) opens its
// citation. Without this script every part still works: the Ask button sends, the fragment opens
// the page at the answer, and each citation opens by its own disclosure.
(function () {
  "use strict";
  var form = document.getElementById("chat-form");
  var question = document.getElementById("id_question");
  var button = document.getElementById("ask-button");
  var hint = document.getElementById("question-key-hint");

  if (form && question) {
    question.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.isComposing) {
        return;
      }
      event.preventDefault();
      if (form.requestSubmit) {
        form.requestSubmit(button || undefined);
      } else {
        form.submit();
      }
    });
    if (hint) {
      // The shortcut is announced only where it works: with this script running.
      hint.hidden = false;
      question.setAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter");
      var described = question.getAttribute("aria-describedby");
      question.setAttribute("aria-describedby", described ? described + " " + hint.id : hint.id);
    }
  }

  // A run's address ends in #result-heading: once the heading can take the focus (never a Tab
  // stop), the browser's own fragment navigation moves the focus to it.
  var heading = document.getElementById("result-heading");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    if (window.location.hash === "#result-heading" && document.activeElement === document.body) {
      heading.focus({ preventScroll: true });
    }
  }

  function openCitation(hash) {
    if (!/^#cite-[PCU][0-9]{1,3}$/.test(hash)) {
      return;
    }
    var item = document.getElementById(hash.slice(1));
    var details = item && item.querySelector("details");
    if (!details) {
      return;
    }
    details.open = true;
    var summary = details.querySelector("summary");
    if (summary) {
      summary.focus({ preventScroll: true });
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.cite");
    if (link) {
      openCitation(link.getAttribute("href") || "");
    }
  });
  window.addEventListener("hashchange", function () {
    openCitation(window.location.hash);
  });
  openCitation(window.location.hash);
}());
