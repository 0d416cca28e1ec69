// The page's texts in the firmware's four languages (web/pagetext.json, put into the page
// by tools/web.py): they follow the language chosen in the device's settings. And the
// status line under the panel, which shows one of them, a line of the club's, or an error.
const LANG_ITEM = "s66.lang"; // the UI's language as last seen, for the texts before boot
const TEXTS = JSON.parse(document.getElementById("pagetext").textContent);

const statusLine = document.getElementById("status");
let lang = "en"; // the language the page's texts are in
let statusKey = ""; // the page text the status line shows ("" if none, or another text)

export function tr(key) {
  const texts = TEXTS[lang] || TEXTS.en;
  return texts[key] || TEXTS.en[key] || key;
}

export function language() {
  return lang;
}

// Every text of the page in the UI's language: elements marked data-t (their text),
// data-t-aria (their aria-label) and data-t-title (their tooltip).
export function setTexts(code) {
  lang = TEXTS[code] ? code : "en";
  document.documentElement.lang = lang;
  document.title = tr("title");
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = tr(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-aria]")) el.setAttribute("aria-label", tr(el.dataset.tAria));
  for (const el of document.querySelectorAll("[data-t-title]")) el.title = tr(el.dataset.tTitle);
  if (statusKey) statusLine.textContent = tr(statusKey);
  try {
    localStorage.setItem(LANG_ITEM, lang);
  } catch (err) {
    console.warn("page language: " + err);
  }
}

// The texts as last seen, until the app says (page.js boot()).
export function lastLanguage() {
  return localStorage.getItem(LANG_ITEM) || "en";
}

// The status line shows the page text key ("" for none), in the language of the day.
export function say(key) {
  statusKey = key;
  statusLine.textContent = key ? tr(key) : "";
}

// The page text the status line shows, "" if none.
export function saying() {
  return statusKey;
}

// A line made of other words (the club's, clubpage.js); not while an error shows.
export function sayLine(text) {
  if (failed()) return;
  statusKey = "";
  statusLine.textContent = text;
}

export function fail(err) {
  statusKey = "";
  statusLine.textContent = tr("error") + ": " + (err && err.message ? err.message : err);
  statusLine.classList.add("error");
  console.error(err);
}

export function failed() {
  return statusLine.classList.contains("error");
}
