// Progressive enhancement only: every page works without this file.
// Copy buttons: <button data-copy="ELEMENT_ID" hidden> copies that element's text.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const target = document.getElementById(button.dataset.copy);
    if (!target) continue;
    button.hidden = false;
    const status = button.closest("section")?.querySelector(".copy-status");
    const label = button.textContent;
    button.addEventListener("click", async () => {
      const text = target.textContent.trim();
      let copied = false;
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        copied = document.execCommand("copy");
      }
      button.textContent = copied ? "Copied" : label;
      if (status) status.textContent = copied ? "Copied to the clipboard." : "Select the text and copy it with your keyboard.";
      setTimeout(() => {
        button.textContent = label;
      }, 2500);
    });
  }

  // "All events" and single events exclude each other in the webhook form.
  const all = document.querySelector("input[name=events][value='*']");
  if (all) {
    const singles = [...document.querySelectorAll("input[name=events]:not([value='*'])")];
    const sync = () => {
      for (const box of singles) box.disabled = all.checked;
    };
    all.addEventListener("change", sync);
    sync();
  }
});
