// The match as a file: the CSV and JSON links under the keys, and an export chosen in the
// device's history list (ui/info.py; keypath.js hands it here), the very same file.
import { fw } from "./runtime.js";
import { fail } from "./texts.js";

// kind: "csv" or "json"; e: the link's click, if it came from one.
export function download(kind, e) {
  if (e) e.preventDefault();
  if (!fw.web) return;
  let text;
  try {
    text = fw.web.export_text(kind);
  } catch (err) {
    fail(err);
    return;
  }
  const type = kind === "csv" ? "text/csv" : "application/json";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
  a.download = "sixtysix-" + new Date().toISOString().slice(0, 10) + "." + kind;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

export function bindDownloads() {
  document.getElementById("export-csv").addEventListener("click", (e) => download("csv", e));
  document.getElementById("export-json").addEventListener("click", (e) => download("json", e));
}
