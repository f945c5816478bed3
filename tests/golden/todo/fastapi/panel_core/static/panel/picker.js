// The relation picker: a key input ([data-picker]) becomes a search-as-you-type box
// over the related resource's own JSON list (?search=…&per_page=20). Without this
// script the key input and its "find…" link still work.
"use strict";

(() => {
  // A record's name from its JSON fields, as the server's panel_core.labels names it.
  const text = (value) => {
    if (value === null || value === undefined) {
      return "";
    }
    if (value === true || value === false) {
      return value ? "Yes" : "No";
    }
    const shown = String(value);
    const instant = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(shown);
    return instant ? `${instant[1]} ${instant[2]}` : shown;
  };

  const nameOf = (parts, record, key) => {
    const name = parts
      .map(([literal, field]) => (field === null ? literal : text(record[field])))
      .join("");
    return name.trim() ? name : `#${key}`;
  };

  const optionNode = (id, name, key) => {
    const item = document.createElement("li");
    item.id = id;
    item.setAttribute("role", "option");
    item.dataset.key = key;
    item.dataset.name = name;
    const first = document.createElement("span");
    first.textContent = name;
    const second = document.createElement("small");
    second.textContent = `#${key}`;
    item.append(first, second);
    return item;
  };

  const setUp = (picker, index) => {
    const input = picker.querySelector("input");
    const picked = picker.querySelector(".picked");
    const parts = JSON.parse(picker.dataset.display);
    const keyName = picker.dataset.key;
    const required = input.required;
    const box = document.createElement("input");
    const list = document.createElement("ul");
    const label = document.querySelector(`label[for="${input.id}"]`);
    box.type = "search";
    box.id = input.id;
    box.autocomplete = "off";
    box.placeholder = picker.dataset.lookup ? "Type a key" : "Type to search";
    box.required = required && !input.value;
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-expanded", "false");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-controls", `picker-${index}-list`);
    box.setAttribute("aria-describedby", picked.id);
    list.id = `picker-${index}-list`;
    list.className = "picker-list";
    list.setAttribute("role", "listbox");
    if (label) {
      list.setAttribute("aria-label", label.textContent.replace("*", "").trim());
    }
    list.hidden = true;
    input.removeAttribute("id");
    input.type = "hidden";
    if (!input.value) {
      picked.textContent = "None chosen"; // no key to type: the box searches
    }
    picker.insertBefore(box, input);
    picker.insertBefore(list, picked);
    let asked = 0;
    let active = -1;

    const close = () => {
      list.hidden = true;
      active = -1;
      box.setAttribute("aria-expanded", "false");
      box.removeAttribute("aria-activedescendant");
    };

    const choose = (item) => {
      input.value = item.dataset.key;
      picked.textContent = `${item.dataset.name} · #${item.dataset.key}`;
      box.value = "";
      box.required = false;
      close();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    };

    const highlight = (next) => {
      const items = list.querySelectorAll("[role=option]");
      if (!items.length) {
        return;
      }
      active = (next + items.length) % items.length;
      items.forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
      box.setAttribute("aria-activedescendant", items[active].id);
      items[active].scrollIntoView({ block: "nearest" });
    };

    const show = (records) => {
      list.replaceChildren();
      records.forEach((record, i) => {
        const key = record[keyName];
        list.append(optionNode(`picker-${index}-${i}`, nameOf(parts, record, key), key));
      });
      if (!records.length) {
        const none = document.createElement("li");
        none.className = "none";
        none.textContent = "No matching records";
        list.append(none);
      }
      list.hidden = false;
      active = -1;
      box.setAttribute("aria-expanded", "true");
    };

    // A resource without search fields is looked up by the key typed instead.
    const lookup = picker.dataset.lookup;
    const address = () =>
      lookup
        ? `${lookup}/${encodeURIComponent(box.value.trim())}`
        : `${picker.dataset.search}&search=${encodeURIComponent(box.value)}`;

    const search = async () => {
      const mine = ++asked;
      if (lookup && !box.value.trim()) {
        return;
      }
      const response = await fetch(address(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (mine !== asked) {
        return; // a later search is on its way
      }
      if (lookup && response.status === 404) {
        show([]);
      } else if (!response.ok) {
        picked.textContent = "Searching failed: type the key of a record";
        box.remove();
        input.type = "text";
        input.id = box.id;
      } else {
        const found = await response.json();
        show(lookup ? [found] : found.data);
      }
    };

    box.addEventListener("input", () => {
      if (!box.value) {
        close();
        return;
      }
      search();
    });
    box.addEventListener("focus", () => {
      if (!box.value && list.hidden) {
        search();
      }
    });
    box.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Enter" && !list.hidden && active >= 0) {
        event.preventDefault();
        choose(list.querySelectorAll("[role=option]")[active]);
      } else if (event.key === "Escape") {
        close();
      }
    });
    list.addEventListener("mousedown", (event) => {
      const item = event.target.closest("[role=option]");
      if (item) {
        event.preventDefault();
        choose(item);
      }
    });
    box.addEventListener("blur", close);
    if (!required) {
      const clear = document.createElement("button");
      clear.type = "button";
      clear.className = "button small";
      clear.textContent = "Clear";
      clear.addEventListener("click", () => {
        input.value = "";
        picked.textContent = "None chosen";
      });
      picker.insertBefore(clear, picker.querySelector(".find"));
    }
  };

  document.querySelectorAll("[data-picker]").forEach(setUp);
})();
