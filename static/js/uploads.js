// Upload panel: send the file through the session-source API with a progress bar; a file
// dropped on the file field is uploaded the same way. Without this script the form posts
// normally (the no-script path); nothing here is required.
(function () {
  "use strict";
  var form = document.getElementById("upload-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) {
    return;
  }
  var box = document.getElementById("upload-progress");
  var bar = document.getElementById("upload-progress-bar");
  var text = document.getElementById("upload-progress-text");
  var rejections = document.getElementById("upload-rejections");
  var input = document.getElementById("upload-file");

  function reject(name, code, message) {
    var item = document.createElement("li");
    item.className = "upload-message rejected";
    var strong = document.createElement("strong");
    strong.textContent = "Rejected";
    item.appendChild(strong);
    item.appendChild(document.createTextNode(" (" + code + "): " + name + ": " + message));
    rejections.appendChild(item);
  }

  var zone = document.getElementById("upload-drop");
  var hint = document.getElementById("upload-drop-hint");

  form.addEventListener("submit", function (event) {
    var file = input.files && input.files[0];
    if (!file) {
      return;
    }
    event.preventDefault();
    send(file);
  });

  if (zone && window.DataTransfer) {
    hint.hidden = false;
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (event) {
        event.preventDefault();
        zone.classList.add("drop-active");
      });
    });
    ["dragleave", "drop"].forEach(function (name) {
      zone.addEventListener(name, function () {
        zone.classList.remove("drop-active");
      });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (!files || !files.length) {
        return;
      }
      if (files.length > 1) {
        reject(files[0].name, "one_file", "Drop one file at a time; nothing was uploaded.");
        return;
      }
      input.files = files;
      send(files[0]);
    });
  }

  function send(file) {
    var maxBytes = parseInt(form.getAttribute("data-max-bytes"), 10);
    if (file.size > maxBytes) {
      reject(file.name, "too_large", "The file is " + file.size.toLocaleString("en-US") +
        " bytes; the largest accepted file is " + maxBytes.toLocaleString("en-US") +
        " bytes (PDF and Word). Nothing was uploaded.");
      form.reset();
      return;
    }
    var data = new FormData(form);
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.getAttribute("data-api-url"));
    xhr.setRequestHeader("X-CSRFToken", token);
    xhr.setRequestHeader("Accept", "application/json");
    box.hidden = false;
    bar.value = 0;
    text.textContent = "Uploading " + file.name + "…";
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) {
        var pct = Math.round((e.loaded / e.total) * 100);
        bar.value = pct;
        text.textContent = "Uploading " + file.name + ": " + pct + "%";
        if (e.loaded >= e.total) {
          bar.removeAttribute("value");
          text.textContent = "Extracting text from " + file.name + "…";
        }
      }
    });
    xhr.addEventListener("load", function () {
      if (xhr.status === 201) {
        text.textContent = "Added " + file.name + ".";
        var added = "";
        try {
          added = JSON.parse(xhr.responseText).session_source_id || "";
        } catch (ignored) {
          // the page then lists the source without its confirmation line
        }
        // A fresh GET (never a resubmission of an answered question) that confirms the source.
        window.location.assign(form.getAttribute("data-return-url") + "?added=" +
          encodeURIComponent(added) + "#session-sources");
        return;
      }
      box.hidden = true;
      var code = "error";
      var message = "The upload failed (HTTP " + xhr.status + ").";
      try {
        var body = JSON.parse(xhr.responseText);
        if (body && body.error) {
          code = body.error.code;
          message = body.error.message;
        }
      } catch (ignored) {
        // a non-JSON error page: keep the generic message
      }
      reject(file.name, code, message);
      form.reset();
    });
    xhr.addEventListener("error", function () {
      box.hidden = true;
      reject(file.name, "network", "The upload could not be sent.");
    });
    xhr.send(data);
  }
}());
