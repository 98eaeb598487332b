/**
 * The header menu's script (layout.tsx), on every signed-in page. The menu opens and closes
 * without it (`<details>`); this adds what a menu is expected to do besides: Escape closes it and
 * gives the focus back to its button, and a tap or the focus going elsewhere closes it (it covers
 * the page, so what is behind it would otherwise be tapped or focused unseen). In a block: the
 * page's own script shares the global scope.
 */
export const MENU_SCRIPT = `{
const menu = document.querySelector('details.menu')
if (menu) {
  const button = menu.querySelector('summary')
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.open) return
    menu.open = false
    button.focus()
  })
  document.addEventListener('click', (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false
  })
  menu.addEventListener('focusout', (event) => {
    if (menu.open && event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false
  })
}
}`
