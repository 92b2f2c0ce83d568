// Building the page from data: every text goes in through textContent, so that no name or message from the
// controller can become markup.

/** An element with attributes and children (elements or strings). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(name, value === true ? '' : value);
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

/** A button that runs an action when clicked. */
export function button(label, action, attributes = {}) {
  const b = el('button', { type: 'button', ...attributes }, label);
  b.addEventListener('click', action);
  return b;
}

/** Replaces a container's content. */
export function show(container, ...children) {
  container.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
}

/**
 * Asks for a few fields in the page's dialog; resolves to {name: value} on OK, null on Cancel.
 * fields: [{name, label, type?, options?, required?, placeholder?}]
 */
export function ask(title, fields) {
  const dialog = document.getElementById('form-dialog');
  document.getElementById('dialog-title').textContent = title;
  const inputs = fields.map((f) => {
    const input = f.options
      ? el('select', { name: f.name, id: `field-${f.name}` }, ...f.options.map((o) => el('option', { value: o }, o)))
      : el('input', {
        name: f.name, id: `field-${f.name}`, type: f.type || 'text', required: f.required, placeholder: f.placeholder,
      });
    return { f, input };
  });
  show(document.getElementById('dialog-fields'),
    ...inputs.map(({ f, input }) => el('label', {}, f.label, input)));
  return new Promise((resolve) => {
    const form = document.getElementById('dialog-form');
    const cancel = document.getElementById('dialog-cancel');
    const done = (value) => {
      form.onsubmit = null;
      cancel.onclick = null;
      dialog.oncancel = null;
      dialog.close();
      resolve(value);
    };
    dialog.oncancel = () => done(null); // Escape
    form.onsubmit = (event) => {
      event.preventDefault();
      const values = {};
      for (const { f, input } of inputs) {
        if (input.value !== '') {
          values[f.name] = input.value;
        }
      }
      done(values);
    };
    cancel.onclick = () => done(null);
    dialog.showModal();
  });
}
