// A "Copy" button for a link or code shown in a read-only box: the clipboard where the
// browser allows it, else the text selected for the person to copy, with a word in ``said``.

export function copyButton(text, input, said, className = "copy") {
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = className;
  copy.textContent = "Copy";
  copy.addEventListener("click", async () => {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        said.textContent = "Copied";
        return;
      } catch { /* refused: select it for the person to copy */ }
    }
    input.focus();
    input.select();
    said.textContent = "Press and hold to copy (Ctrl+C on a keyboard)";
  });
  return copy;
}
