// Runs before Scalar's bundle. Scalar gives the nonce of <meta property="csp-nonce"> to its main
// stylesheet only. Some of its parts add <style> elements of their own (toasts), set `style`
// attributes from script (a scrollbar probe), or insert highlighted code as HTML whose elements
// carry `style` attributes: the page's policy (style-src 'self' plus the nonce) would refuse all
// three. Here style elements created by script get the page's nonce, and `style` attributes set
// by script go through the CSSOM, which the policy allows. Nothing reaches the page this way that
// Scalar's own script did not put there: no other script can run on it.
(() => {
  const nonce = document.querySelector('meta[property="csp-nonce"]')?.getAttribute("content") ?? "";

  const createElement = Document.prototype.createElement;
  Document.prototype.createElement = function (tagName, options) {
    const element = createElement.call(this, tagName, options);
    if (String(tagName).toLowerCase() === "style") element.nonce = nonce;
    return element;
  };

  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (String(name).toLowerCase() === "style" && this.style) {
      this.style.cssText = String(value);
      return;
    }
    setAttribute.call(this, name, value);
  };

  // Set as HTML, a style attribute would be refused while the HTML is parsed: it is renamed
  // before parsing and moved to the CSSOM after. (In markup, a literal `style="` inside text is
  // escaped as `style=&quot;`, so only attributes match.)
  const innerHTML = Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML");
  Object.defineProperty(Element.prototype, "innerHTML", {
    ...innerHTML,
    set(html) {
      const text = String(html);
      if (!/\sstyle="/.test(text)) return innerHTML.set.call(this, text);
      innerHTML.set.call(this, text.replace(/(\s)style="/g, '$1data-csp-style="'));
      for (const element of this.querySelectorAll("[data-csp-style]")) {
        element.style.cssText = element.getAttribute("data-csp-style");
        element.removeAttribute("data-csp-style");
      }
    },
  });
})();
