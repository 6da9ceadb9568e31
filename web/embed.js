// The example host page of embed.html: it posts a file's bytes into the
// second iframe when the viewer there says it is ready, and lists the
// messages the viewers send.
"use strict";
const frame = document.getElementById("by-message");
const seen = [];
window.addEventListener("message", async (e) => {
  if (e.origin !== location.origin || !e.data || typeof e.data.type !== "string") return;
  seen.push(e.data.type);
  document.getElementById("messages").textContent = seen.slice(-6).join(", ");
  if (e.data.type === "tensorview:ready" && e.source === frame.contentWindow) {
    const data = await (await fetch("samples/js_images.arrow")).arrayBuffer();
    frame.contentWindow.postMessage({type: "tensorview:open", name: "js_images.arrow", data}, location.origin);
  }
});
