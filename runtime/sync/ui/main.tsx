/** Entry point of the sync dashboard bundle (built by compiler/sync/dashboard-ui.ts into generated/sync-ui). */
import { render } from 'preact';
import '../../console-ui/style.css';
import { Dashboard } from './dashboard.js';
import './style.css';

render(<Dashboard />, document.getElementById('app') as HTMLElement);
