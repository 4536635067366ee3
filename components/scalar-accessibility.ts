/**
 * Repairs of Scalar's markup (0.8.70) that axe reports as serious or critical, applied to the
 * reference's subtree as Vue renders it (a MutationObserver; each repair only when needed, so the
 * observer's own changes end the loop):
 *
 * - sidebar buttons carry `aria-selected`, which a button may not have: the selected one gets
 *   `aria-current="page"` instead;
 * - a tab list holding a control that is no tab (the client libraries' "more" menu) is not a tab list:
 *   it and its tabs become plain buttons, the selected one `aria-pressed`;
 * - icon buttons without a name (search, copy, menus) get one in the page's language;
 * - Scalar's own `<main>` inside the portal's becomes a named region (one main landmark per page);
 * - a tag's endpoint list, which scrolls on a narrow screen, can take the keyboard's focus.
 */
export interface AccessibilityLabels {
  search: string;
  copy: string;
  menu: string;
}

function hasName(element: Element): boolean {
  if (element.getAttribute("aria-label")?.trim() || element.getAttribute("aria-labelledby") || element.getAttribute("title")?.trim())
    return true;
  const text = (node: Node): string =>
    node.nodeType === Node.TEXT_NODE
      ? (node.textContent ?? "")
      : node instanceof Element && node.getAttribute("aria-hidden") !== "true"
        ? (node.getAttribute("aria-label") ?? [...node.childNodes].map(text).join(""))
        : "";
  return text(element).trim() !== "";
}

function repair(root: Element, labels: AccessibilityLabels): void {
  for (const button of root.querySelectorAll("button[aria-selected]")) {
    if (button.getAttribute("role") === "tab") continue;
    const selected = button.getAttribute("aria-selected") === "true";
    button.removeAttribute("aria-selected");
    if (selected) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const list of root.querySelectorAll('[role="tablist"]')) {
    const children = [...list.children];
    if (children.every((child) => child.getAttribute("role") === "tab")) continue;
    list.removeAttribute("role");
    list.removeAttribute("aria-orientation");
    for (const tab of list.querySelectorAll('[role="tab"]')) {
      tab.removeAttribute("role");
      tab.setAttribute("aria-pressed", tab.getAttribute("aria-selected") === "true" ? "true" : "false");
      tab.removeAttribute("aria-selected");
    }
  }
  for (const button of root.querySelectorAll('button:not([aria-label]), [role="button"]:not([aria-label])')) {
    // Their text is hidden from assistive technology (a shortcut hint, a tooltip shown on hover).
    const search = button.getAttribute("role") === "search";
    const copy = /copy-button/.test(button.getAttribute("class") ?? "");
    const menu = /client-libraries__select/.test(button.getAttribute("class") ?? "");
    if (!search && !copy && !menu && hasName(button)) continue;
    button.setAttribute("aria-label", search ? labels.search : copy ? labels.copy : labels.menu);
  }
  for (const main of root.querySelectorAll("main:not([role])")) main.setAttribute("role", "region");
  // A tag's list of endpoints scrolls on a narrow screen: reachable from the keyboard.
  for (const list of root.querySelectorAll("ul.endpoints:not([tabindex])")) list.setAttribute("tabindex", "0");
}

/** Keeps repairing the subtree until the returned function is called. */
export function keepAccessible(root: Element, labels: AccessibilityLabels): () => void {
  repair(root, labels);
  const observer = new MutationObserver(() => {
    observer.disconnect();
    repair(root, labels);
    observer.observe(root, options);
  });
  const options: MutationObserverInit = {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["aria-selected", "role", "aria-label", "tabindex"],
  };
  observer.observe(root, options);
  return () => observer.disconnect();
}
