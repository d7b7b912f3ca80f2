/** Entry point of the console bundle (built by compiler/console-ui/build.ts). */
import { render } from 'preact';
import { App } from './app.js';
import './style.css';

render(<App />, document.getElementById('app') as HTMLElement);
